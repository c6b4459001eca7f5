import ArgumentParser
import ConciergeCLI
import ConciergeKit
import Foundation

/// `concierge events …`: the seat-map tickets app's flow from a terminal, through ConciergeKit.
struct EventsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Sign up, browse shows and seats, buy and cancel tickets, check them in against a Concierge server.",
        subcommands: [
            SignUp.self, SignIn.self, VerifyEmail.self, Shows.self, Show.self, Seats.self, Buy.self, Tickets.self,
            Cancel.self, CheckIn.self, SignOut.self,
        ])
}

struct EventsOptions: ParsableArguments {
    @Option(help: "The server (or CONCIERGE_SERVER; default http://127.0.0.1:8080).")
    var server: String?
    @Flag(help: "Print JSON for scripts.")
    var json = false

    /// Runs a command and prints its output; errors become one line on standard error and exit 1.
    func run(_ body: (EventsCommands) async throws -> String) async throws {
        let address = server ?? ProcessInfo.processInfo.environment["CONCIERGE_SERVER"] ?? "http://127.0.0.1:8080"
        guard let url = URL(string: address), url.scheme != nil else {
            FileHandle.standardError.write(
                Data("error: '\(address)' is not a server URL, e.g. http://127.0.0.1:8080\n".utf8))
            throw ExitCode(2)
        }
        let commands = EventsCommands(client: EventsClient(baseURL: url, tokens: FileEventsTokenStore()), json: json)
        do {
            print(try await body(commands))
        } catch let refused as EventsCheckInRefused {
            print(refused.output)
            throw ExitCode(1)
        } catch {
            FileHandle.standardError.write(Data("error: \(CLIError.message(for: error))\n".utf8))
            throw ExitCode(1)
        }
    }
}

/// The password from `--password` or, when absent, read from standard input (so it stays out of
/// the shell history).
private func readPassword(_ given: String?) throws -> String {
    if let given { return given }
    FileHandle.standardError.write(Data("Password: ".utf8))
    guard let line = readLine(), !line.isEmpty else { throw CLIError("no password entered") }
    return line
}

extension EventsCommand {
    struct SignUp: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "signup", abstract: "Create an account; a confirmation link is emailed.")
        @Option(help: "Your email address.") var email: String
        @Option(help: "Your name.") var name: String
        @Option(help: "10 to 128 characters (asked for when absent).") var password: String?
        @OptionGroup var options: EventsOptions
        func run() async throws {
            try await options.run {
                try await $0.signUp(email: email, password: try readPassword(self.password), name: name)
            }
        }
    }

    struct SignIn: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "signin", abstract: "Sign in and keep the token.")
        @Option(help: "Your email address.") var email: String
        @Option(help: "Asked for when absent.") var password: String?
        @OptionGroup var options: EventsOptions
        func run() async throws {
            try await options.run { try await $0.signIn(email: email, password: try readPassword(self.password)) }
        }
    }

    struct VerifyEmail: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify-email", abstract: "Confirm your email with the token from the link.")
        @Option(help: "The token= part of the link.") var token: String
        @Option(help: "Your email address.") var email: String
        @OptionGroup var options: EventsOptions
        func run() async throws { try await options.run { try await $0.verifyEmail(token: token, email: email) } }
    }

    struct Shows: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Upcoming shows, optionally searched.")
        @Argument(help: "Title, venue or location to search for.") var search: [String] = []
        @OptionGroup var options: EventsOptions
        func run() async throws {
            try await options.run { try await $0.shows(search: search.isEmpty ? nil : search.joined(separator: " ")) }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "One show with its price categories.")
        @Argument(help: "The show's id (see `concierge events shows`).") var id: String
        @OptionGroup var options: EventsOptions
        func run() async throws { try await options.run { try await $0.show(id: id) } }
    }

    struct Seats: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Free seats of a show, per row.")
        @Argument(help: "The show's id.") var id: String
        @Flag(help: "List every seat with its state.") var all = false
        @OptionGroup var options: EventsOptions
        func run() async throws { try await options.run { try await $0.seats(showID: id, all: all) } }
    }

    struct Buy: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Hold seats and print the payment link: --seats A1,A2 or --quantity N (best available).")
        @Argument(help: "The show's id.") var id: String
        @Option(help: "Seat ids, comma-separated (all or nothing).") var seats: String?
        @Option(help: "How many of the best adjacent seats.") var quantity: Int?
        @Option(help: "Only this section (with --quantity).") var section: String?
        @OptionGroup var options: EventsOptions
        func run() async throws {
            let ids = seats?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } ?? []
            try await options.run {
                try await $0.buy(showID: id, seats: ids, quantity: quantity, section: section)
            }
        }
    }

    struct Tickets: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Your bookings, newest first.")
        @OptionGroup var options: EventsOptions
        func run() async throws { try await options.run { try await $0.tickets() } }
    }

    struct Cancel: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Cancel a booking (refunded until the deadline).")
        @Argument(help: "The order id (see `concierge events tickets`).") var order: String
        @OptionGroup var options: EventsOptions
        func run() async throws { try await options.run { try await $0.cancel(orderID: order) } }
    }

    struct CheckIn: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "checkin",
            abstract: "Admit a ticket at the door once; a refusal (already admitted, not valid, …) exits 1.")
        @Argument(help: "The ticket's scan code (the booking's qrCode, or one seat's code from its QR image).")
        var code: String
        @Option(help: "The show this door admits to (default: the one the code names).") var show: String?
        @Option(help: "The gate, recorded with the scan (default main).") var gate: String?
        @Option(help: "A scanner token or the admin token (or CONCIERGE_SCANNER_TOKEN).") var scannerToken: String?
        @OptionGroup var options: EventsOptions
        func run() async throws {
            guard let token = scannerToken ?? ProcessInfo.processInfo.environment["CONCIERGE_SCANNER_TOKEN"],
                !token.isEmpty
            else {
                FileHandle.standardError.write(
                    Data("error: pass --scanner-token or set CONCIERGE_SCANNER_TOKEN\n".utf8))
                throw ExitCode(2)
            }
            try await options.run {
                try await $0.checkIn(code: code, showID: show, gate: gate, scannerToken: token)
            }
        }
    }

    struct SignOut: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "signout", abstract: "End the session.")
        @OptionGroup var options: EventsOptions
        func run() async throws { try await options.run { try await $0.signOut() } }
    }
}
