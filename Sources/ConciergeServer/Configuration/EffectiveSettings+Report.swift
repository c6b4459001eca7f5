/// What `concierge config` prints: each setting, its value and its source, secrets redacted.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension EffectiveSettings {
    public static let redacted = "<redacted>"

    /// One line per setting: `CONCIERGE_PORT=9000  (flag --port)`; a setting no source gives
    /// shows its documented default.
    public var report: String {
        settings.map { setting in
            let shown: String
            if let value = setting.value {
                shown = setting.isSecret && !value.isEmpty ? Self.redacted : value
            } else {
                shown = setting.variable.defaultValue
            }
            return "\(setting.variable.name)=\(shown)  (\(setting.source))"
        }
        .joined(separator: "\n")
    }
}
