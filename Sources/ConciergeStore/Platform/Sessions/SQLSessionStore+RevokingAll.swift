public import Foundation

extension SQLSessionStore {
    /// One conditional update over the account's rows: a session revoked before keeps its time.
    public func revokeAll(accountID: String, at date: Date) async throws -> Int {
        try await database.query(
            "UPDATE sessions SET revoked_at = ? WHERE account_id = ? AND revoked_at IS NULL RETURNING id",
            [SQLValue(date), .text(accountID)]
        ).count
    }
}
