import ArgumentParser
import ConciergeCLI
import ConciergeKit
import Foundation

/// `concierge rides …`: the rides app's flow from a terminal, through ConciergeKit.
struct Rides: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Sign in, find places, price and book rides against a Concierge server.",
        subcommands: [
            Login.self, Places.self, Price.self, Book.self, Bookings.self, Show.self, Cancel.self, Logout.self,
        ])
}

struct ClientOptions: ParsableArguments {
    @Option(help: "The server (or CONCIERGE_SERVER; default http://127.0.0.1:8080).")
    var server: String?
    @Flag(help: "Print JSON for scripts.")
    var json = false

    /// Runs a command and prints its output; errors become one line on standard error and exit 1.
    func run(_ body: (RidesCommands) async throws -> String) async throws {
        let address = server ?? ProcessInfo.processInfo.environment["CONCIERGE_SERVER"] ?? "http://127.0.0.1:8080"
        guard let url = URL(string: address), url.scheme != nil else {
            FileHandle.standardError.write(
                Data("error: '\(address)' is not a server URL, e.g. http://127.0.0.1:8080\n".utf8))
            throw ExitCode(2)
        }
        let commands = RidesCommands(
            client: ConciergeClient(baseURL: url), manager: AuthenticationManager(store: FileSessionStore()), json: json
        )
        do {
            print(try await body(commands))
        } catch {
            FileHandle.standardError.write(Data("error: \(CLIError.message(for: error))\n".utf8))
            throw ExitCode(1)
        }
    }
}

extension Rides {
    struct Login: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Send a code by SMS, read it, and keep the session.")
        @Option(help: "Your phone number with country code, e.g. +41791234567.") var phone: String
        @OptionGroup var options: ClientOptions

        func run() async throws {
            try await options.run { commands in
                try await commands.login(phone: phone) {
                    FileHandle.standardError.write(Data("Code from the SMS: ".utf8))
                    return readLine()
                }
            }
        }
    }

    struct Places: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Find places by name, alternate name or IATA code.")
        @Argument(help: "What to search for.") var text: [String]
        @OptionGroup var options: ClientOptions
        func run() async throws {
            try await options.run { try await $0.places(text.joined(separator: " ")) }
        }
    }

    struct Price: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Prices of every class for a trip.")
        @Option(help: "Pickup: a place ID or text.") var from: String
        @Option(help: "Destination: a place ID or text.") var to: String
        @Option(help: "Pickup time in Zurich, e.g. \"2027-01-15 14:00\".") var at: String
        @OptionGroup var options: ClientOptions
        func run() async throws {
            try await options.run { try await $0.price(from: from, to: to, at: at) }
        }
    }

    struct Book: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Book a ride; prints the reference, price and checkout URL.")
        @Option(help: "Pickup: a place ID or text.") var from: String
        @Option(help: "Destination: a place ID or text.") var to: String
        @Option(help: "Pickup time in Zurich, e.g. \"2027-01-15 14:00\".") var at: String
        @Option(name: .customLong("class"), help: "business, first or xl.") var vehicleClass = "business"
        @Option(help: "Passengers.") var passengers = 1
        @Option(help: "Flight number, e.g. LX123.") var flight: String?
        @OptionGroup var options: ClientOptions
        func run() async throws {
            try await options.run {
                try await $0.book(
                    from: from, to: to, at: at, vehicleClass: vehicleClass, passengers: passengers, flight: flight)
            }
        }
    }

    struct Bookings: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Your bookings, newest first.")
        @OptionGroup var options: ClientOptions
        func run() async throws { try await options.run { try await $0.bookings() } }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "One booking.")
        @Argument(help: "The reference, e.g. VRM-123456.") var reference: String
        @OptionGroup var options: ClientOptions
        func run() async throws { try await options.run { try await $0.show(reference) } }
    }

    struct Cancel: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Cancel a booking (free until 24 h before pickup).")
        @Argument(help: "The reference, e.g. VRM-123456.") var reference: String
        @OptionGroup var options: ClientOptions
        func run() async throws { try await options.run { try await $0.cancel(reference) } }
    }

    struct Logout: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke the session and forget it.")
        @OptionGroup var options: ClientOptions
        func run() async throws { try await options.run { await $0.logout() } }
    }
}
