import Configuration

/// Serves a provider's values as the text `ServerConfiguration` parses, as the environment holds
/// them: a JSON number or boolean (`"port": 9000`, `"autoMigrate": true`, which reads as `1`) and
/// a flag value the command-line provider split at its commas (`--sms-allowed-countries CH,LI`)
/// become the string the variable would have. Other lookups pass through.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
struct TextValuesProvider<Upstream: ConfigProvider>: ConfigProvider {
    let upstream: Upstream

    var providerName: String { upstream.providerName }

    func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
        try snapshot().value(forKey: key, type: type)
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

    func snapshot() -> any ConfigSnapshot { TextSnapshot(upstream: upstream.snapshot()) }

    func watchSnapshot<Return: ~Copyable>(
        updatesHandler:
            nonisolated(nonsending) (ConfigUpdatesAsyncSequence<any ConfigSnapshot, Never>) async throws -> Return
    ) async throws -> Return {
        try await watchSnapshotFromSnapshot(updatesHandler: updatesHandler)
    }
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
private struct TextSnapshot: ConfigSnapshot {
    let upstream: any ConfigSnapshot

    var providerName: String { upstream.providerName }

    /// Tries text first, then the forms that render as text; the first error is the one reported.
    func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
        guard type == .string else { return try upstream.value(forKey: key, type: type) }
        var firstError: (any Error)?
        for form in [ConfigType.string, .stringArray, .int, .double] {
            do {
                var result = try upstream.value(forKey: key, type: form)
                if let value = result.value {
                    result.value = ConfigValue(.string(value.content.text), isSecret: value.isSecret)
                }
                return result
            } catch {
                firstError = firstError ?? error
            }
        }
        throw firstError!
    }
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension ConfigContent {
    /// The value as the environment would hold it; arrays comma-separated, as every list setting is.
    fileprivate var text: String {
        switch self {
        case .string(let text): text
        case .stringArray(let texts): texts.joined(separator: ",")
        case .int(let number): String(number)
        case .double(let number): String(number)
        case .bool(let flag): String(flag)
        case .intArray(let numbers): numbers.map(String.init).joined(separator: ",")
        case .doubleArray(let numbers): numbers.map { String($0) }.joined(separator: ",")
        case .boolArray(let flags): flags.map(String.init).joined(separator: ",")
        case .bytes, .byteChunkArray: ""
        }
    }
}
