public import ConciergeCore

/// One issuer we accept ID tokens from: its `iss` spellings (the first is canonical), the
/// audiences (client ids) we accept, and where its keys are.
public struct IDTokenIssuer: Sendable {
    public let provider: IdentityProvider
    public let issuers: [String]
    public let audiences: [String]
    public let keys: JWKSSource

    public init(provider: IdentityProvider, issuers: [String], audiences: [String], keys: JWKSSource) {
        self.provider = provider
        self.issuers = issuers
        self.audiences = audiences
        self.keys = keys
    }

    public static let appleIssuer = "https://appleid.apple.com"
    public static let appleKeys = "https://appleid.apple.com/auth/keys"
    /// Google signs with either spelling (google-auth-library's `ISSUERS_`).
    public static let googleIssuers = ["https://accounts.google.com", "accounts.google.com"]
    public static let googleKeys = "https://www.googleapis.com/oauth2/v3/certs"
}
