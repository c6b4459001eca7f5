import ArgumentParser
import ConciergeCLI
import ConciergeKit
import Foundation

/// `concierge stays …`: the hotel app's flow from a terminal, through ConciergeKit.
struct StaysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stays",
        abstract: "Register, sign in, search rooms, reserve and cancel hotel stays against a Concierge server.",
        subcommands: [
            Register.self, Login.self, Rooms.self, Reserve.self, Reservations.self, Cancel.self, Profile.self,
            Logout.self,
        ])
}

struct StaysOptions: ParsableArguments {
    @Option(help: "The server (or CONCIERGE_SERVER; default http://127.0.0.1:8080).")
    var server: String?
    @Flag(help: "Print JSON for scripts.")
    var json = false

    /// Runs a command and prints its output; errors become lines on standard error and exit 1.
    func run(_ body: (StaysCommands) async throws -> String) async throws {
        let address = server ?? ProcessInfo.processInfo.environment["CONCIERGE_SERVER"] ?? "http://127.0.0.1:8080"
        guard let url = URL(string: address), url.scheme != nil else {
            FileHandle.standardError.write(
                Data("error: '\(address)' is not a server URL, e.g. http://127.0.0.1:8080\n".utf8))
            throw ExitCode(2)
        }
        let network = StaysNetwork(baseURL: url.appendingPathComponent("stays"), tokens: FileStaysTokenStore())
        do {
            print(try await body(StaysCommands(api: StaysAPI(network: network), json: json)))
        } catch {
            FileHandle.standardError.write(Data("error: \(CLIError.message(for: error))\n".utf8))
            throw ExitCode(1)
        }
    }

    /// The password from `--password`, CONCIERGE_STAYS_PASSWORD, or a prompt.
    static func password(_ given: String?) -> String {
        if let given { return given }
        if let fromEnvironment = ProcessInfo.processInfo.environment["CONCIERGE_STAYS_PASSWORD"] {
            return fromEnvironment
        }
        FileHandle.standardError.write(Data("Password: ".utf8))
        return readLine() ?? ""
    }
}

extension StaysCommand {
    struct Register: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a guest account.")
        @Option(help: "User name: 3-30 of a-z 0-9 . _ -") var user: String
        @Option(help: "First name.") var firstName: String
        @Option(help: "Last name.") var lastName: String
        @Option(help: "Email address.") var email: String
        @Option(help: "Phone with country code, e.g. +41791234567.") var phone: String
        @Option(help: "Password (or CONCIERGE_STAYS_PASSWORD, or asked).") var password: String?
        @OptionGroup var options: StaysOptions
        func run() async throws {
            let secret = StaysOptions.password(password)
            try await options.run {
                try await $0.register(
                    username: user, firstName: firstName, lastName: lastName, email: email, phone: phone,
                    password: secret)
            }
        }
    }

    struct Login: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Sign in by user name or email; keeps the tokens.")
        @Option(help: "User name or email.") var user: String
        @Option(help: "Password (or CONCIERGE_STAYS_PASSWORD, or asked).") var password: String?
        @OptionGroup var options: StaysOptions
        func run() async throws {
            let secret = StaysOptions.password(password)
            try await options.run { try await $0.login(user, password: secret) }
        }
    }

    struct Rooms: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Room types free for the dates, priced.")
        @Option(help: "Check-in date, e.g. 2027-02-01.") var from: String
        @Option(help: "Check-out date.") var to: String
        @Option(help: "Adults (1-8).") var guests = 2
        @Option(help: "Children.") var children: Int?
        @OptionGroup var options: StaysOptions
        func run() async throws {
            try await options.run { try await $0.rooms(from: from, to: to, guests: guests, children: children) }
        }
    }

    struct Reserve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Reserve a room type (its ID from `rooms`).")
        @Option(help: "Room type ID.") var room: Int64
        @Option(help: "Check-in date, e.g. 2027-02-01.") var from: String
        @Option(help: "Check-out date.") var to: String
        @Option(help: "Guests.") var guests = 2
        @Option(help: "Purpose of the stay.") var purpose: String?
        @OptionGroup var options: StaysOptions
        func run() async throws {
            try await options.run {
                try await $0.reserve(room: room, from: from, to: to, guests: guests, purpose: purpose)
            }
        }
    }

    struct Reservations: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Your reservations.")
        @Option(help: "upcoming or past (default both).") var when: String?
        @OptionGroup var options: StaysOptions
        func run() async throws {
            try await options.run { try await $0.reservations(when: when) }
        }
    }

    struct Cancel: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Cancel a reservation under the policy.")
        @Argument(help: "The reservation ID.") var id: Int
        @OptionGroup var options: StaysOptions
        func run() async throws {
            try await options.run { try await $0.cancel(id: id) }
        }
    }

    struct Profile: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Your guest profile.")
        @OptionGroup var options: StaysOptions
        func run() async throws {
            try await options.run { try await $0.profile() }
        }
    }

    struct Logout: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Forget the tokens on this machine.")
        @OptionGroup var options: StaysOptions
        func run() async throws {
            try await options.run { $0.logout() }
        }
    }
}
