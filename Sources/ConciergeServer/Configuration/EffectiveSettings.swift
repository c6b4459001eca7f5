import Configuration

/// Every setting's value and where it came from, read through one swift-configuration
/// `ConfigReader` whose providers are, highest first: flags, the environment, `NAME_FILE`
/// secrets, the JSON file named by CONCIERGE_CONFIG_FILE (or `--config-file`). A setting none of
/// them gives keeps its documented default, which `ServerConfiguration` applies as before, so
/// parsing, its one-line errors and the verticals' own variables stay where they are.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
public struct EffectiveSettings: Sendable {
    public enum Source: Sendable, Equatable, CustomStringConvertible {
        case flag(String)
        case environment
        case secretFile(variable: String, path: String)
        case configFile(path: String)
        case defaultValue

        public var description: String {
            switch self {
            case .flag(let flag): "flag \(flag)"
            case .environment: "environment"
            case .secretFile(let variable, let path): "\(variable) \(path)"
            case .configFile(let path): "config file \(path)"
            case .defaultValue: "default"
            }
        }
    }

    public struct Setting: Sendable {
        public let variable: ConfigurationVariable
        /// Nil when no source gives it: the default applies.
        public let value: String?
        public let source: Source
        /// As swift-configuration marked it: the variable is a secret, or its provider said so.
        public let isSecret: Bool
    }

    public let settings: [Setting]

    /// The variables some source gives, as `ServerConfiguration(environment:)` parses them.
    public var environment: [String: String] {
        Dictionary(settings.compactMap { setting in setting.value.map { (setting.variable.name, $0) } }) { $1 }
    }

    /// Reads every variable of `variables` from `arguments` (the flags, without the command) and
    /// `environment`. Refuses an unknown flag, an unreadable `NAME_FILE` or config file, and in
    /// production a secret given as a flag.
    public static func load(
        arguments: [String], environment: [String: String],
        variables: [ConfigurationVariable] = ConfigurationVariable.all
    ) async throws(ConfigurationError) -> EffectiveSettings {
        try SettingFlags.check(arguments, variables: variables)
        var sources = SourceList()
        sources.append(ConfigurationSources.commandLine(arguments, variables: variables)) { .flag($0.flag) }
        sources.append(ConfigurationSources.environment(environment, variables: variables)) { _ in .environment }
        sources.append(SecretFileProvider(environment: environment, variables: variables)) {
            .secretFile(variable: $0.name + "_FILE", path: environment[$0.name + "_FILE"] ?? "")
        }
        // The file is named by the sources above it.
        if let fileVariable = variables.first(where: { $0.name == "CONCIERGE_CONFIG_FILE" }),
            let path = try sources.read([fileVariable]).first?.value, !path.isEmpty
        {
            let file = try await ConfigurationSources.configFile(at: path, variables: variables)
            sources.append(file) { _ in .configFile(path: path) }
        }
        let settings = EffectiveSettings(settings: try sources.read(variables))
        try settings.refuseSecretFlagsInProduction()
        return settings
    }

    /// Flags are readable by every local user (`ps`, `/proc/*/cmdline`): production takes
    /// secrets from the environment or a file (security review finding 25).
    func refuseSecretFlagsInProduction() throws(ConfigurationError) {
        let mode = settings.first { $0.variable.name == "CONCIERGE_MODE" }?.value
        guard mode?.trimmingCharacters(in: .whitespaces).lowercased() == "production" else { return }
        let flagged = settings.filter(\.variable.isSecret).sorted { $0.variable.name < $1.variable.name }
        for setting in flagged {
            guard case .flag(let flag) = setting.source else { continue }
            let name = setting.variable.name
            throw ConfigurationError(
                name,
                "was given as \(flag), which every user of this machine can read in the process list; in "
                    + "production pass it in the environment or as \(name)_FILE")
        }
    }

    /// The server's configuration; a malformed value that came from a flag or the config file
    /// says which, since the variable's name alone would send one looking in the environment.
    public func configuration() throws(ConfigurationError) -> ServerConfiguration {
        do {
            return try ServerConfiguration(environment: environment)
        } catch {
            guard let setting = settings.first(where: { $0.variable.name == error.variable }) else { throw error }
            switch setting.source {
            case .flag(let flag):
                throw ConfigurationError(error.variable, "\(error.problem) (given as \(flag))")
            case .configFile(let path):
                throw ConfigurationError(error.variable, "\(error.problem) (\"\(setting.variable.key)\" in \(path))")
            case .secretFile(let variable, let path):
                throw ConfigurationError(error.variable, "\(error.problem) (from \(variable) \(path))")
            case .environment, .defaultValue:
                throw error
            }
        }
    }
}
