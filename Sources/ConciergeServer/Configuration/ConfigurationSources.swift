import Configuration
import Foundation

/// The swift-configuration providers behind every setting, one per source, each keyed by
/// `ConfigurationVariable.key`. `EffectiveSettings` reads them, highest first, through one
/// `ConfigReader`.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
enum ConfigurationSources {
    /// `--port 9000` or `--port=9000`: the library derives `--port` from the key `port`.
    static func commandLine(_ arguments: [String], variables: [ConfigurationVariable]) -> any ConfigProvider {
        let secretFlags = Set(variables.filter(\.isSecret).map(\.flag))
        return TextValuesProvider(
            upstream: CommandLineArgumentsProvider(
                // The provider skips the first argument, the program's name.
                arguments: ["concierge"] + arguments,
                secretsSpecifier: .dynamic { flag, _ in secretFlags.contains(flag) }))
    }

    /// `CONCIERGE_PORT=9000`: the library derives `PORT` from the key `port`; the mapping adds
    /// the `CONCIERGE_` prefix for the variables that have it (not `DATABASE_URL`).
    static func environment(_ environment: [String: String], variables: [ConfigurationVariable]) -> any ConfigProvider {
        let prefixed = Set(variables.filter(\.isPrefixed).map(\.key))
        return KeyMappingProvider(
            upstream: EnvironmentVariablesProvider(
                environmentVariables: environment,
                secretsSpecifier: .specific(Set(variables.filter(\.isSecret).map(\.name)))),
            keyMapper: { key in
                prefixed.contains(key.description) ? AbsoluteConfigKey(["concierge"] + key.components) : key
            })
    }

    /// `{"port": 9000, "databaseUrl": "postgres://…"}`. A missing or malformed file, or a key that
    /// is no setting, stops the start with one line.
    static func configFile(at path: String, variables: [ConfigurationVariable]) async throws(ConfigurationError)
        -> any ConfigProvider
    {
        let name = "CONCIERGE_CONFIG_FILE"
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError(name, "names '\(path)', which cannot be read")
        }
        let provider: FileProvider<JSONSnapshot>
        do {
            // The provider takes its path from a reader (key `filePath`).
            let location = InMemoryProvider(values: ["filePath": ConfigValue(.string(path), isSecret: false)])
            provider = try await FileProvider<JSONSnapshot>(
                parsingOptions: .init(secretsSpecifier: .specific(Set(variables.filter(\.isSecret).map(\.key)))),
                config: ConfigReader(provider: location))
        } catch {
            throw ConfigurationError(name, "'\(path)' is not a JSON object of settings (\(oneLine(error)))")
        }
        try refuseKeysThatAreNoSetting(data, path: path, variables: variables)
        return TextValuesProvider(upstream: provider)
    }

    /// A key that is no setting would be ignored, a typo unnoticed; and the provider flattens an
    /// object into dotted keys no setting has.
    private static func refuseKeysThatAreNoSetting(_ data: Data, path: String, variables: [ConfigurationVariable])
        throws(ConfigurationError)
    {
        let object = (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
        for key in object.keys.sorted() {
            guard let variable = variables.first(where: { $0.key == key }) else {
                throw ConfigurationError(
                    "CONCIERGE_CONFIG_FILE",
                    "'\(path)' has \"\(key)\", which is no setting (keys are camel-case, e.g. sqlitePath)")
            }
            if object[key] is [String: Any] {
                throw ConfigurationError(
                    variable.name,
                    "\"\(key)\" in \(path) is an object; a setting is text, a number, true/false or a list")
            }
        }
    }

    /// An error's description on one line; for Foundation's JSON errors, just what is wrong
    /// ("Unexpected end of file during JSON parse.").
    static func oneLine(_ error: any Error) -> String {
        let text = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
        return text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: " ")
    }
}
