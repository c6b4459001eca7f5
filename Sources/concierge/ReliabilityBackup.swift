import ArgumentParser
import ConciergeBenchmarks

extension Reliability {
    /// `concierge reliability backup`: the backup drill (docs/operators/backups.md).
    struct BackupDrillCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "backup",
            abstract: "Book under load, back up mid-load, restore into a fresh place, and check the copy.",
            discussion: """
                Starts `concierge serve` (dev mode, sandbox payments) on a database of its own — an SQLite file, \
                or with --engine postgresql a PostgreSQL server it starts itself (initdb, pg_ctl) — and runs \
                --connections clients booking rides and paying in the sandbox. Once --bookings are acknowledged \
                it runs `concierge backup` with the load still going, then `concierge restore` into a new file or \
                database, and checks that every booking acknowledged before the backup began is in the copy with \
                its payment record (paid, when its payment was acknowledged). Prints rows, backup seconds and bytes, \
                restore seconds and violations; exits non-zero when there is any violation.
                """)

        @Option(help: "sqlite or postgresql.") var engine: String = "sqlite"
        @Option(help: "Bookings acknowledged before the backup starts (100000 measures a sizeable database).")
        var bookings = 200
        @Option(help: "Concurrent clients, each on its own connection and customer.") var connections = 8
        @Option(help: "The server's log level.") var serverLogLevel = "warning"
        @Flag(help: "Print JSON instead of a table.") var json = false

        func validate() throws {
            guard BackupDrill.Engine(rawValue: engine) != nil else {
                throw ValidationError("--engine must be sqlite or postgresql.")
            }
            guard bookings > 0, connections > 0 else {
                throw ValidationError("--bookings and --connections must be positive.")
            }
        }

        func run() async throws {
            var drill = BackupDrill()
            drill.engine = BackupDrill.Engine(rawValue: engine) ?? .sqlite
            drill.bookingsBeforeBackup = bookings
            drill.connections = connections
            drill.serverLogLevel = serverLogLevel
            let quiet = json
            let report = try await drill.run { line in
                if !quiet { print(line) }
            }
            print(json ? try report.json() : "\n" + report.table)
            if !report.passed { throw ExitCode.failure }
        }
    }
}
