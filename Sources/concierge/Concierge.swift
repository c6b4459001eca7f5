import ArgumentParser

@main
struct Concierge: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "concierge",
        abstract: "Concierge: a self-hostable booking platform.",
        subcommands: [
            Serve.self, Migrate.self, Backup.self, Restore.self, Config.self, Rides.self, StaysCommand.self,
            EventsCommand.self,
            CommuteCommand.self, OpsCommand.self,
            Bench.self,
            Reliability.self,
        ]
    )
}
