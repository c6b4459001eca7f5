import ArgumentParser
import ConciergeCLI
import ConciergeKit
import Foundation

/// `concierge commute …`: leave-time planning against a Concierge server.
struct CommuteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "commute", abstract: "Save commutes, get leave times and record how long trips took.",
        subcommands: [Trips.self, Next.self, Observe.self])

    struct Options: ParsableArguments {
        @Option(help: "The server (or CONCIERGE_SERVER; default http://127.0.0.1:8080).") var server: String?
        @Option(help: "A session or Clerk token (or CONCIERGE_TOKEN; default the `rides login` session).")
        var token: String?
        @Flag(help: "Print JSON for scripts.") var json = false

        func run(_ body: (CommuteCommands) async throws -> String) async throws {
            let environment = ProcessInfo.processInfo.environment
            let address = server ?? environment["CONCIERGE_SERVER"] ?? "http://127.0.0.1:8080"
            guard let url = URL(string: address), url.scheme != nil else {
                FileHandle.standardError.write(Data("error: '\(address)' is not a server URL\n".utf8))
                throw ExitCode(2)
            }
            let session =
                token ?? environment["CONCIERGE_TOKEN"]
                ?? AuthenticationManager(store: FileSessionStore()).sessionToken
            do {
                print(
                    try await body(CommuteCommands(client: ConciergeClient(baseURL: url), token: session, json: json)))
            } catch {
                FileHandle.standardError.write(Data("error: \(CLIError.message(for: error))\n".utf8))
                throw ExitCode(1)
            }
        }
    }

    struct Trips: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add, list, show and delete trips.", subcommands: [Add.self, List.self, Show.self, Delete.self])

        struct Add: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Save a trip.")
            @Option(help: "A name, e.g. Office.") var name: String
            @Option(help: "Start: latitude,longitude[,label].") var from: String
            @Option(help: "Destination: latitude,longitude[,label].") var to: String
            @Option(help: "Arrival, local HH:MM.") var arrive: String
            @Option(help: "Days, e.g. mon,tue,wed,thu,fri (the default).") var days: String?
            @Option(help: "IANA time zone.") var timeZone = "Europe/Zurich"
            @Option(help: "Buffer minutes (0–60, default 5).") var buffer: Int?
            @OptionGroup var options: Options

            func run() async throws {
                try await options.run {
                    try await $0.add(
                        .init(
                            name: name, from: from, to: to, arrive: arrive, days: days, timeZone: timeZone,
                            buffer: buffer))
                }
            }
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "List your trips.")
            @OptionGroup var options: Options
            func run() async throws { try await options.run { try await $0.list() } }
        }

        struct Show: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Show one trip.")
            @Argument(help: "The trip id.") var trip: String
            @OptionGroup var options: Options
            func run() async throws { try await options.run { try await $0.show(trip) } }
        }

        struct Delete: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Delete a trip.")
            @Argument(help: "The trip id.") var trip: String
            @OptionGroup var options: Options
            func run() async throws { try await options.run { try await $0.delete(trip) } }
        }
    }

    struct Next: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "When to leave for the trip's next occurrence.")
        @Argument(help: "The trip id.") var trip: String
        @Option(help: "A local day YYYY-MM-DD instead of the next occurrence.") var date: String?
        @OptionGroup var options: Options
        func run() async throws { try await options.run { try await $0.next(trip, date: date) } }
    }

    struct Observe: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Record when you left and arrived.")
        @Argument(help: "The trip id.") var trip: String
        @Option(help: "When you left, ISO 8601.") var departed: String
        @Option(help: "When you arrived, ISO 8601.") var arrived: String
        @OptionGroup var options: Options
        func run() async throws {
            try await options.run { try await $0.observe(trip, departed: departed, arrived: arrived) }
        }
    }
}
