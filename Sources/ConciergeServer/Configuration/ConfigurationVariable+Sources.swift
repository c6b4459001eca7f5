/// How a variable is named in swift-configuration, and whether its value is a secret.
extension ConfigurationVariable {
    /// The swift-configuration key, also the config file's key: `CONCIERGE_SQLITE_PATH` →
    /// `sqlitePath`, `DATABASE_URL` → `databaseUrl`. The library's command-line encoder turns it
    /// into `--sqlite-path` (the `flag`), its environment encoder into `SQLITE_PATH`, to which
    /// `ConfigurationSources` adds the `CONCIERGE_` prefix when the name has it.
    public var key: String {
        let words = bareName.lowercased().split(separator: "_")
        return words.enumerated().map { $0.offset == 0 ? String($0.element) : $0.element.capitalized }.joined()
    }

    /// Whether the environment name carries the `CONCIERGE_` prefix (`DATABASE_URL` does not).
    var isPrefixed: Bool { name.hasPrefix(Self.prefix) }

    var bareName: String { isPrefixed ? String(name.dropFirst(Self.prefix.count)) : name }

    static let prefix = "CONCIERGE_"

    /// Whether the value is a secret: printed redacted, and refused as a flag in production.
    public var isSecret: Bool {
        Self.secretNames.contains(name) || ["_TOKEN", "_KEY", "_SECRET"].contains { name.hasSuffix($0) }
    }

    /// Secrets whose names do not end in `_TOKEN`, `_KEY` or `_SECRET`. Flags are readable by every
    /// local user (`ps`, `/proc/*/cmdline`), so production refuses secrets as flags (security
    /// review finding 25).
    public static let secretNames: Set<String> = [
        "CONCIERGE_SECRET", "DATABASE_URL", "STRIPE_WEBHOOK_SECRET", "SMTP_URL",
    ]
}
