import ArgumentParser
import ConciergeServer
import Logging

struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Apply pending database migrations and exit.")

    @OptionGroup var flags: ServerFlags

    func run() async throws {
        let configuration = try await flags.configuration()
        LogSetup.bootstrap(configuration)
        let applied = try await migrateDatabase(configuration: configuration)
        print(
            applied.isEmpty
                ? "Database is up to date." : "Applied migrations: \(applied.joined(separator: ", "))."
        )
    }
}
