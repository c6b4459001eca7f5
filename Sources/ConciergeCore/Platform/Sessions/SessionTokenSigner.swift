public import Foundation

/// The claims of a session's JWT access token: it names the session (`sid`), so the session row
/// decides whether it still counts.
public struct SessionClaims: Sendable, Equatable {
    public let sessionID: String
    public let accountID: String
    public let issuedAt: Date
    public let expiresAt: Date

    public init(sessionID: String, accountID: String, issuedAt: Date, expiresAt: Date) {
        self.sessionID = sessionID
        self.accountID = accountID
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
    }
}

/// Signs and checks access tokens. The signature is the signer's concern; expiry is checked by
/// `SessionService` against its injected clock.
public protocol SessionTokenSigner: Sendable {
    func sign(_ claims: SessionClaims) async throws -> String
    /// The claims of a token whose signature is good, or nil for anything else.
    func verify(_ token: String) async -> SessionClaims?
}
