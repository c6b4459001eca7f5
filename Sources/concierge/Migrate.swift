import ArgumentParser
import ConciergeServer
import Logging

struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Apply pending database migrations and exit.",
        discussion: """
            With --check, changes nothing and says whether this binary can serve the schema it finds. \
            Exit status: 0 it can (the schema is current, or a newer release only added to it); \
            2 migrations are pending, all expand-only (running instances keep serving while they apply), \
            or the database is empty; 3 pending migrations include a contract step; \
            4 refused: a newer release changed what this binary reads; 1 the database could not be read.
            """)

    @OptionGroup var flags: ServerFlags

    @Flag(help: "Say whether this binary can serve the database's schema; apply nothing.")
    var check = false

    func run() async throws {
        let configuration = try await flags.configuration()
        LogSetup.bootstrap(configuration)
        if check {
            let compatibility = try await checkSchema(configuration: configuration)
            print(compatibility.report.joined(separator: "\n"))
            if compatibility.exitCode != 0 { throw ExitCode(compatibility.exitCode) }
            return
        }
        let applied = try await migrateDatabase(configuration: configuration)
        print(
            applied.isEmpty
                ? "Database is up to date." : "Applied migrations: \(applied.joined(separator: ", "))."
        )
    }
}
