import ArgumentParser
import ConciergeServer
import Foundation

/// Every server setting as a flag: `--port 9000` is `CONCIERGE_PORT=9000`. Flags win over the
/// environment, which wins over `NAME_FILE` secrets and the config file (`--config-file`); see
/// `EffectiveSettings`. The list comes from `ConfigurationVariable.all`, so a new variable gets
/// its flag and its help line without touching this file.
struct ServerFlags: ParsableArguments {
    @Argument(
        parsing: .allUnrecognized,
        help: ArgumentHelp(
            "Settings as flags, e.g. --port 9000. Each has an environment variable:",
            discussion: ConfigurationVariable.all.map { "\($0.flag) (\($0.name)), default \($0.defaultValue)" }
                .joined(separator: "\n")))
    var settings: [String] = []

    /// The settings from the flags, the environment and the config file, parsed. A configuration
    /// error is not a usage error: it prints its one line, not the usage text.
    func configuration() async throws -> ServerConfiguration {
        if #available(macOS 15, *) {
            return try await effectiveSettings().configuration()
        }
        // swift-configuration needs macOS 15; before it, the environment alone.
        guard settings.isEmpty else { throw ValidationError("settings as flags need macOS 15 or later") }
        return try ServerConfiguration(environment: ProcessInfo.processInfo.environment)
    }

    @available(macOS 15, *)
    func effectiveSettings() async throws -> EffectiveSettings {
        try await EffectiveSettings.load(arguments: settings, environment: ProcessInfo.processInfo.environment)
    }
}
