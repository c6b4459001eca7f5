import Configuration
import Synchronization

/// The providers, highest first, each with what it means as a setting's source; reads variables
/// through a `ConfigReader`, whose access events say which provider answered.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
struct SourceList {
    private var providers: [any ConfigProvider] = []
    private var sources: [@Sendable (ConfigurationVariable) -> EffectiveSettings.Source] = []

    mutating func append(
        _ provider: any ConfigProvider,
        as source: @escaping @Sendable (ConfigurationVariable) -> EffectiveSettings.Source
    ) {
        providers.append(provider)
        sources.append(source)
    }

    func read(_ variables: [ConfigurationVariable]) throws(ConfigurationError) -> [EffectiveSettings.Setting] {
        let recorder = AccessRecorder()
        let reader = ConfigReader(providers: providers, accessReporter: recorder)
        var settings: [EffectiveSettings.Setting] = []
        for variable in variables {
            let value = reader.string(forKey: ConfigKey(variable.key), isSecret: variable.isSecret)
            // The reader tries the providers in order and stops at the first that answers or fails.
            let results = recorder.event(forKey: variable.key)?.providerResults ?? []
            switch results.last?.result {
            case .failure(let error):
                throw Self.refusal(error, variable: variable, source: sources[results.count - 1](variable))
            case .success(let lookup) where lookup.value != nil:
                let isSecret = variable.isSecret || lookup.value?.isSecret == true
                let source = sources[results.count - 1](variable)
                settings.append(.init(variable: variable, value: value, source: source, isSecret: isSecret))
            default:
                settings.append(
                    .init(variable: variable, value: nil, source: .defaultValue, isSecret: variable.isSecret))
            }
        }
        return settings
    }

    /// A provider's failure as one line naming the variable (and the file, for the config file).
    static func refusal(_ error: any Error, variable: ConfigurationVariable, source: EffectiveSettings.Source)
        -> ConfigurationError
    {
        if let error = error as? ConfigurationError { return error }
        switch source {
        case .configFile(let path):
            return ConfigurationError(
                variable.name, "\"\(variable.key)\" in \(path) is neither text, a number, true/false nor a list of text"
            )
        default:
            return ConfigurationError(variable.name, "\(source): \(ConfigurationSources.oneLine(error))")
        }
    }
}

/// Keeps each key's last access event.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
private final class AccessRecorder: AccessReporter {
    private let events = Mutex<[String: AccessEvent]>([:])

    func report(_ event: AccessEvent) {
        events.withLock { $0[event.metadata.key.description] = event }
    }

    func event(forKey key: String) -> AccessEvent? {
        events.withLock { $0[key] }
    }
}
