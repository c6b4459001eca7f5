import Foundation

/// Where settings come from besides the environment: `serve` flags, and `NAME_FILE` variables
/// that name a file holding a secret (a Docker or Kubernetes secret mount).
public enum SettingsSources {
    /// Settings whose values are secrets. Flags are readable by every local user (`ps`,
    /// `/proc/*/cmdline`), so production refuses these as flags (security review finding 25).
    public static let secretNames: Set<String> = [
        "CONCIERGE_SECRET", "CONCIERGE_ADMIN_TOKEN", "CONCIERGE_METRICS_TOKEN", "DATABASE_URL", "MOLLIE_API_KEY",
        "STRIPE_SECRET_KEY",
        "STRIPE_WEBHOOK_SECRET", "TWILIO_AUTH_TOKEN", "POSTMARK_TOKEN", "SMTP_URL", "GOOGLE_MAPS_API_KEY",
    ]

    /// The environment with each `NAME_FILE` read into `NAME` (unless `NAME` is set itself), then
    /// the flags (by variable name) applied on top.
    public static func merge(environment: [String: String], flags: [String: String]) throws(ConfigurationError)
        -> [String: String]
    {
        var merged = environment
        for variable in ConfigurationVariable.all where merged[variable.name] == nil {
            guard let path = environment[variable.name + "_FILE"], !path.isEmpty else { continue }
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ConfigurationError(variable.name + "_FILE", "names '\(path)', which cannot be read")
            }
            var value = String(decoding: data, as: UTF8.self)
            while value.last?.isNewline == true { value.removeLast() }
            merged[variable.name] = value
        }
        for (name, value) in flags { merged[name] = value }
        if merged["CONCIERGE_MODE"]?.lowercased() == "production",
            let secret = flags.keys.sorted().first(where: secretNames.contains)
        {
            let flag = ConfigurationVariable.named(secret)?.flag ?? secret
            throw ConfigurationError(
                secret,
                "was given as \(flag), which every user of this machine can read in the process list; in "
                    + "production pass it in the environment or as \(secret)_FILE")
        }
        return merged
    }
}
