import ArgumentParser
import ConciergeServer
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `concierge ops …`: the operators of `/ops`, straight on the configured database.
struct OpsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ops", abstract: "Manage the operators who sign in to /ops.",
        subcommands: [AddOperator.self])
}

extension OpsCommand {
    struct AddOperator: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add-operator",
            abstract: "Add a named operator. From the first one on, /ops signs in by name and password only.",
            discussion: """
                The password is asked for twice without echo, or read as one line from standard input with \
                --password-stdin (for scripts: printf '%s\\n' "$PASSWORD" | concierge ops add-operator alice \
                --password-stdin). Uses the server's settings (DATABASE_URL, CONCIERGE_BCRYPT_COST, …).
                """)

        @Argument(help: "The operator's sign-in name: 2 to 40 of a-z 0-9 . _ -") var name: String
        @Flag(help: "Read the password as one line from standard input instead of asking.")
        var passwordStdin = false
        @OptionGroup var flags: ServerFlags

        func run() async throws {
            let password = try passwordStdin ? Self.lineFromStandardInput() : Self.askTwice()
            let configuration = try await flags.configuration()
            do {
                let added = try await addOperator(configuration: configuration, name: name, password: password)
                print("Added operator \(added.name) (\(added.id)). Sign in at /ops/sign-in with this name.")
            } catch let refusal as OperatorRefusal {
                FileHandle.standardError.write(Data("error: \(refusal)\n".utf8))
                throw ExitCode(1)
            }
        }

        static func lineFromStandardInput() throws -> String {
            guard let line = readLine(strippingNewline: true), !line.isEmpty else {
                throw ValidationError("--password-stdin read no password from standard input")
            }
            return line
        }

        static func askTwice() throws -> String {
            let first = try readHidden("Password: ")
            guard try readHidden("Password again: ") == first else {
                throw ValidationError("the two passwords differ")
            }
            return first
        }

        /// A line from the terminal with echo off, restored whatever happens.
        static func readHidden(_ prompt: String) throws -> String {
            FileHandle.standardError.write(Data(prompt.utf8))
            var saved = termios()
            guard tcgetattr(STDIN_FILENO, &saved) == 0 else {
                throw ValidationError("standard input is not a terminal: use --password-stdin")
            }
            var hidden = saved
            hidden.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &hidden)
            defer {
                tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
                FileHandle.standardError.write(Data("\n".utf8))
            }
            return readLine(strippingNewline: true) ?? ""
        }
    }
}
