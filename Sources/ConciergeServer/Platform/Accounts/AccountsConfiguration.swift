public import ConciergeProviders
import Foundation

/// The settings of accounts and sign-in (`CONCIERGE_BCRYPT_COST`, the provider audiences and key
/// locations, `CONCIERGE_OIDC_ISSUERS`, the throttles), parsed once with the rest of the
/// configuration.
public struct AccountsConfiguration: Sendable, Equatable {
    /// One OpenID Connect issuer: `issuer|audience|jwks-url-or-file-path`.
    public struct Issuer: Sendable, Equatable {
        public let issuer: String
        public let audience: String
        public let keys: JWKSSource.Location
    }

    public var bcryptCost: Int
    public var appleAudiences: [String]
    public var googleAudiences: [String]
    public var appleKeys: JWKSSource.Location
    public var googleKeys: JWKSSource.Location
    public var oidcIssuers: [Issuer]
    public var signInsPerAccount: Int
    public var signInsPerNetwork: Int
    public var hashedWritesPerNetwork: Int
    public var hashedWritesPerHour: Int
    /// Hashes at once; `CONCIERGE_HASH_CONCURRENCY`, 0 meaning one per core.
    public var hashConcurrency: Int
    public var hashQueue: Int

    init(environment: [String: String]) throws(ConfigurationError) {
        func value(_ name: String) -> String {
            let given = environment[name]?.trimmingCharacters(in: .whitespaces) ?? ""
            return given.isEmpty ? ConfigurationVariable.named(name)?.defaultValue ?? "" : given
        }
        func integer(_ name: String, in range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
            guard let number = Int(value(name)) else {
                throw ConfigurationError(name, "'\(value(name))' is not a whole number")
            }
            guard range.contains(number) else {
                throw ConfigurationError(name, "\(number) is outside \(range.lowerBound)…\(range.upperBound)")
            }
            return number
        }
        func list(_ name: String) -> [String] {
            value(name) == "(unset)"
                ? [] : value(name).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        bcryptCost = try integer("CONCIERGE_BCRYPT_COST", in: BcryptPasswordHasher.allowedCosts)
        appleAudiences = list("CONCIERGE_APPLE_AUDIENCES")
        googleAudiences = list("CONCIERGE_GOOGLE_AUDIENCES")
        appleKeys = try Self.location(value("CONCIERGE_APPLE_JWKS"), variable: "CONCIERGE_APPLE_JWKS")
        googleKeys = try Self.location(value("CONCIERGE_GOOGLE_JWKS"), variable: "CONCIERGE_GOOGLE_JWKS")
        oidcIssuers = try list("CONCIERGE_OIDC_ISSUERS").map { entry throws(ConfigurationError) in
            let parts = entry.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty }) else {
                throw ConfigurationError(
                    "CONCIERGE_OIDC_ISSUERS",
                    "'\(entry)' is not issuer|audience|jwks-url-or-file, e.g. https://clerk.example.com|https://example.com|https://clerk.example.com/.well-known/jwks.json"
                )
            }
            return Issuer(
                issuer: parts[0], audience: parts[1],
                keys: try Self.location(parts[2], variable: "CONCIERGE_OIDC_ISSUERS"))
        }
        signInsPerAccount = try integer("CONCIERGE_SIGNIN_PER_ACCOUNT", in: 1...1_000_000)
        signInsPerNetwork = try integer("CONCIERGE_SIGNIN_PER_NETWORK", in: 1...1_000_000_000)
        hashedWritesPerNetwork = try integer("CONCIERGE_SIGNUP_PER_NETWORK", in: 1...1_000_000_000)
        hashedWritesPerHour = try integer("CONCIERGE_SIGNUP_PER_HOUR", in: 1...1_000_000_000)
        let concurrency = try integer("CONCIERGE_HASH_CONCURRENCY", in: 0...1024)
        hashConcurrency = concurrency == 0 ? ProcessInfo.processInfo.activeProcessorCount : concurrency
        hashQueue = try integer("CONCIERGE_HASH_QUEUE", in: 0...100_000)
    }

    /// HTTPS URLs; plain HTTP only to this machine (a local stub or a sidecar); anything else
    /// is a file that must exist now, so a typo stops the start rather than every sign-in.
    static func location(_ text: String, variable: String) throws(ConfigurationError) -> JWKSSource.Location {
        if text.hasPrefix("https://") { return .url(text) }
        if text.hasPrefix("http://") {
            let host = URL(string: text)?.host ?? ""
            guard ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host) else {
                throw ConfigurationError(variable, "'\(text)' must use https (plain http only to localhost)")
            }
            return .url(text)
        }
        guard FileManager.default.fileExists(atPath: text) else {
            throw ConfigurationError(variable, "'\(text)' is neither an https URL nor a readable JWKS file")
        }
        return .file(text)
    }
}
