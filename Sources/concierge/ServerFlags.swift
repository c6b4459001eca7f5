import ArgumentParser
import ConciergeServer
import Foundation

/// Every server setting as a flag: `--port 9000` is `CONCIERGE_PORT=9000`. Flags win over the
/// environment; `NAME_FILE` reads a secret from a file; production refuses secrets as flags.
/// The list comes from `ConfigurationVariable.all`, so a new variable gets its flag
/// and its help line without touching this file.
struct ServerFlags: ParsableArguments {
    @Argument(
        parsing: .allUnrecognized,
        help: ArgumentHelp(
            "Settings as flags, e.g. --port 9000. Each has an environment variable:",
            discussion: ConfigurationVariable.all.map { "\($0.flag) (\($0.name)), default \($0.defaultValue)" }
                .joined(separator: "\n")))
    var settings: [String] = []

    /// The environment with the flags applied, parsed into a configuration.
    func configuration() throws -> ServerConfiguration {
        var flags: [String: String] = [:]
        var index = settings.startIndex
        while index < settings.endIndex {
            let argument = settings[index]
            let (flag, inlineValue) = Self.split(argument)
            guard let variable = ConfigurationVariable.all.first(where: { $0.flag == flag }) else {
                throw ValidationError("unknown option '\(argument)'; see --help for the settings")
            }
            if let inlineValue {
                flags[variable.name] = inlineValue
            } else {
                index += 1
                guard index < settings.endIndex else { throw ValidationError("\(flag) needs a value") }
                flags[variable.name] = settings[index]
            }
            index += 1
        }
        // A configuration error is not a usage error: print its one line, not the usage text.
        return try ServerConfiguration(
            environment: SettingsSources.merge(environment: ProcessInfo.processInfo.environment, flags: flags))
    }

    private static func split(_ argument: String) -> (String, String?) {
        guard let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }
}
