public import Foundation

/// Persistence for sessions of every vertical.
public protocol SessionStore: Sendable {
    func insert(_ session: AuthSession) async throws
    func session(id: String) async throws -> AuthSession?
    func session(tokenHash: String) async throws -> AuthSession?
    /// Revokes a live session; returns false when it was unknown or revoked already.
    func revoke(id: String, at: Date) async throws -> Bool
    /// Revokes every live session of the account, whichever vertical opened it ("sign out
    /// everywhere"); returns how many were live.
    func revokeAll(accountID: String, at: Date) async throws -> Int
    func insertRefreshToken(hash: String, sessionID: String, issuedAt: Date, expiresAt: Date) async throws
    /// In one transaction: spends the refresh token when it is live and its session is live,
    /// and stores `next` for the same session; revokes the session when the token was spent
    /// before (reuse).
    func rotateRefreshToken(hash: String, next: String, at: Date, nextExpiresAt: Date) async throws -> RefreshOutcome
}
