public import Foundation

extension SQLSessionStore {
    /// Forgets sessions that ended before `cutoff` (with their refresh tokens, by cascade) and
    /// email-verification and reset tokens that lapsed before it. None of them can be used again,
    /// and reuse detection needs a spent refresh token only while its family could still be
    /// refreshed. Returns how many sessions and tokens went.
    @discardableResult
    public func sweep(endedBefore cutoff: Date) async throws -> Int {
        try await database.transaction { db in
            let sessions = try await db.query(
                "DELETE FROM sessions WHERE expires_at < ? RETURNING id", [SQLValue(cutoff)])
            let tokens = try await db.query(
                "DELETE FROM account_tokens WHERE expires_at < ? RETURNING token_hash", [SQLValue(cutoff)])
            return sessions.count + tokens.count
        }
    }
}
