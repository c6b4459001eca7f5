import ArgumentParser
import ConciergeBenchmarks
import Foundation

/// `concierge reliability crash`: the crash drill behind `Tests/ConciergeReliabilityTests`, for
/// as many rounds as you like; `concierge reliability backup`: the backup drill.
struct Reliability: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Reliability drills against a server of its own.",
        subcommands: [Crash.self, BackupDrillCommand.self])

    struct Crash: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "kill -9 the server during a booking, seat, stay and payment load, restart it, and check what was kept.",
            discussion: """
                Each round starts `concierge serve` (dev mode, sandbox payments, worker every second) on the same \
                database, runs a load of booking + sandbox payment clients, kills the server with SIGKILL after \
                a random (seeded) delay, restarts it, retries the requests that were in flight with the same \
                Idempotency-Key, and checks: every booking answered 200 exists with its payment; every payment \
                answered as paid ends confirmed or refunded; every confirmed booking has exactly one \
                confirmation in the dev outbox. Beside them, --seat-buyers verified events buyers hold seats \
                (best available and named seats, racing each other) on 2,000-seat shows and pay in the sandbox; \
                in the first --unpaid-hold-rounds rounds every third buyer holds seats and never pays. After each \
                restart: every seat order answered as paid is confirmed with its seats sold on the seat map, no \
                seat is in two confirmed orders, and the map's sold seats are the confirmed orders' seats. At the \
                end the drill waits for the last unpaid hold to lapse (holds last one minute) and checks that \
                every unpaid order expired and its seats are available again. --stays-buyers stays guests reserve \
                prepaid and pay-at-hotel rooms (three of each type a night), pay, cancel, and pay and cancel at \
                once. Last, the drill reads the database, per vertical (rides, events, stays): no unit held and \
                sold beyond its capacity or its holds, no night with more confirmed stays than rooms; every \
                acknowledged order there with its payment; every payment answered as paid confirmed, or cancelled \
                or refunded with all but the fee given back; no refund owed unpaid; orders.status the vertical's \
                own state. SQLite in a temporary directory unless --database-url names a PostgreSQL database. \
                Exits non-zero when anything was violated.
                """)

        @Option(help: "Kill-and-restart rounds.") var rounds = 20
        @Option(help: "Concurrent clients, each on its own connection and customer.") var connections = 8
        @Option(help: "Events seat buyers beside the rides clients (0: rides only).") var seatBuyers = 6
        @Option(help: "Stays guests beside them (0: no stays).") var staysBuyers = 4
        @Option(help: "Rounds, from the first, in which every third seat buyer leaves its holds unpaid (default: all).")
        var unpaidHoldRounds: Int?
        @Option(help: "PostgreSQL URL to run on (default: SQLite in a temporary directory).")
        var databaseURL: String?
        @Option(help: "Seeds the kill times; repeat a failing run with its seed.") var seed: UInt64 = 1
        @Option(help: "Seconds to wait for a payment to settle or a confirmation to arrive.") var settleSeconds = 20
        @Option(help: "The servers' log level.") var serverLogLevel = "info"
        @Flag(help: "Print JSON instead of a table.") var json = false

        func validate() throws {
            guard rounds > 0, connections > 0, settleSeconds > 0 else {
                throw ValidationError("--rounds, --connections and --settle-seconds must be positive.")
            }
            guard seatBuyers >= 0, staysBuyers >= 0, (unpaidHoldRounds ?? 0) >= 0 else {
                throw ValidationError("--seat-buyers, --stays-buyers and --unpaid-hold-rounds cannot be negative.")
            }
        }

        func run() async throws {
            var drill = CrashDrill()
            drill.rounds = rounds
            drill.connections = connections
            drill.database = databaseURL.flatMap { $0.isEmpty ? nil : CrashDrill.Database(location: $0) }
            drill.seatBuyers = seatBuyers
            drill.staysBuyers = staysBuyers
            drill.unpaidHoldRounds = unpaidHoldRounds
            drill.seed = seed
            drill.settleTimeout = .seconds(settleSeconds)
            drill.serverLogLevel = serverLogLevel
            let quiet = json
            let report = try await drill.run { line in
                if !quiet { print(line) }
            }
            if json {
                print(try report.json())
            } else {
                print("")
                print(report.table)
            }
            if !report.passed { throw ExitCode.failure }
        }
    }
}
