import Configuration
import Foundation

/// `NAME_FILE=/run/secrets/name` gives `NAME` the content of that file (a Docker or Kubernetes
/// secret mount), without its trailing newline. swift-configuration has no such convention (its
/// `DirectoryFilesProvider` reads a whole directory by key name instead), hence this provider.
/// It serves only the variables it is given, always as secret text.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
struct SecretFileProvider: Sendable {
    /// `NAME_FILE` by key: `secret` → `CONCIERGE_SECRET_FILE`.
    private let fileVariables: [String: String]
    private let environment: [String: String]

    init(environment: [String: String], variables: [ConfigurationVariable]) {
        self.environment = environment
        fileVariables = Dictionary(
            variables.map { ($0.key, $0.name + "_FILE") }, uniquingKeysWith: { first, _ in first })
    }

    /// The file variable that names a file for `key`, if one is set.
    func fileVariable(forKey key: AbsoluteConfigKey) -> (name: String, path: String)? {
        guard let name = fileVariables[key.description], let path = environment[name], !path.isEmpty else {
            return nil
        }
        return (name, path)
    }
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension SecretFileProvider: ConfigProvider, ConfigSnapshot {
    var providerName: String { "SecretFileProvider" }

    func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
        guard let (name, path) = fileVariable(forKey: key) else {
            return LookupResult(encodedKey: key.description, value: nil)
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError(name, "names '\(path)', which cannot be read")
        }
        guard type == .string else {
            throw ConfigurationError(name, "holds text, which cannot be read as \(type.rawValue)")
        }
        var text = String(decoding: data, as: UTF8.self)
        while text.last?.isNewline == true { text.removeLast() }
        return LookupResult(encodedKey: name, value: ConfigValue(.string(text), isSecret: true))
    }

    func fetchValue(forKey key: AbsoluteConfigKey, type: ConfigType) async throws -> LookupResult {
        try value(forKey: key, type: type)
    }

    func watchValue<Return: ~Copyable>(
        forKey key: AbsoluteConfigKey, type: ConfigType,
        updatesHandler:
            nonisolated(nonsending) (ConfigUpdatesAsyncSequence<Result<LookupResult, any Error>, Never>) async throws ->
            Return
    ) async throws -> Return {
        try await watchValueFromValue(forKey: key, type: type, updatesHandler: updatesHandler)
    }

    func snapshot() -> any ConfigSnapshot { self }

    func watchSnapshot<Return: ~Copyable>(
        updatesHandler:
            nonisolated(nonsending) (ConfigUpdatesAsyncSequence<any ConfigSnapshot, Never>) async throws -> Return
    ) async throws -> Return {
        try await watchSnapshotFromSnapshot(updatesHandler: updatesHandler)
    }
}
