public import Foundation

/// One server-side session, whatever token names it. Every vertical's sessions live in one table,
/// so revoking a row ends every token that names it at once.
public struct AuthSession: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// An opaque random token, looked up by its keyed hash (rides).
        case bearer
        /// A JWT access token carrying the session id (`sid`), valid as long as the session (events).
        case access
        /// Short JWT access tokens plus rotating refresh tokens; the session is the refresh family (stays).
        case refreshable
    }

    public let id: String
    public let accountID: String
    public let kind: Kind
    /// The vertical that opened it (`rides`, `events`, `stays`, `account`).
    public let vertical: String
    /// Keyed hash of the opaque token; nil for JWT sessions.
    public let tokenHash: String?
    public let createdAt: Date
    public let expiresAt: Date
    public let revokedAt: Date?

    public init(
        id: String, accountID: String, kind: Kind, vertical: String, tokenHash: String?, createdAt: Date,
        expiresAt: Date, revokedAt: Date?
    ) {
        self.id = id
        self.accountID = accountID
        self.kind = kind
        self.vertical = vertical
        self.tokenHash = tokenHash
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.revokedAt = revokedAt
    }

    public func isLive(at now: Date) -> Bool { revokedAt == nil && now < expiresAt }
}

/// The tokens handed out when a session opens or a refresh token is spent. Each exists in full
/// only here: the store keeps keyed hashes (opaque and refresh tokens) or nothing (JWTs).
public struct IssuedSession: Sendable {
    public let session: AuthSession
    /// The opaque bearer token or the JWT access token.
    public let accessToken: String
    public let accessExpiresAt: Date
    public let refreshToken: String?
}

/// What a refresh did, decided inside one transaction.
public enum RefreshOutcome: Sendable, Equatable {
    /// The token was live and is now spent; the session may issue the next one.
    case rotated(AuthSession)
    /// The token had been spent before: a copy is in someone else's hands. The whole family
    /// (the session) was revoked in the same transaction.
    case reused
    /// Unknown, expired, or its session is over.
    case invalid
}
