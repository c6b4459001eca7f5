public import ConciergeCore
public import Foundation

/// `SessionStore` over the one `sessions` table and its `refresh_tokens`.
public struct SQLSessionStore: SessionStore {
    let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    /// In a transaction of its own, like `revoke`, so that an operator's sign-in and sign-out
    /// commit with their audit entries (`OperatorAuditingDatabase`).
    public func insert(_ session: AuthSession) async throws {
        _ = try await database.transaction { db in
            try await db.query(
                """
                INSERT INTO sessions (id, account_id, kind, vertical, token_hash, created_at, expires_at, revoked_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(session.id), .text(session.accountID), .text(session.kind.rawValue),
                    .text(session.vertical), SQLValue(session.tokenHash), SQLValue(session.createdAt),
                    SQLValue(session.expiresAt), SQLValue(session.revokedAt),
                ])
        }
    }

    public func session(id: String) async throws -> AuthSession? {
        try await database.query("SELECT * FROM sessions WHERE id = ?", [.text(id)]).first.map(AuthSession.init(row:))
    }

    public func session(tokenHash: String) async throws -> AuthSession? {
        try await database.query("SELECT * FROM sessions WHERE token_hash = ?", [.text(tokenHash)]).first.map(
            AuthSession.init(row:))
    }

    public func revoke(id: String, at date: Date) async throws -> Bool {
        try await database.transaction { db in
            !(try await db.query(
                "UPDATE sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL RETURNING id",
                [SQLValue(date), .text(id)]
            ).isEmpty)
        }
    }

    public func insertRefreshToken(hash: String, sessionID: String, issuedAt: Date, expiresAt: Date) async throws {
        try await database.query(
            "INSERT INTO refresh_tokens (token_hash, session_id, issued_at, expires_at) VALUES (?, ?, ?, ?)",
            [.text(hash), .text(sessionID), SQLValue(issuedAt), SQLValue(expiresAt)])
    }

    public func rotateRefreshToken(hash: String, next: String, at date: Date, nextExpiresAt: Date) async throws
        -> RefreshOutcome
    {
        try await database.transaction(lockKeys: ["refresh-token:\(hash)"]) { db in
            // Spending is the conditional update: of two refreshes with one token, one gets the row.
            let spent = try await db.query(
                """
                UPDATE refresh_tokens SET spent_at = ?
                WHERE token_hash = ? AND spent_at IS NULL AND expires_at > ?
                RETURNING session_id
                """, [SQLValue(date), .text(hash), SQLValue(date)])
            if let row = spent.first {
                let sessionID = try row.string("session_id")
                guard
                    let session = try await db.query("SELECT * FROM sessions WHERE id = ?", [.text(sessionID)]).first
                        .map(AuthSession.init(row:)), session.isLive(at: date)
                else { return .invalid }
                try await db.query(
                    "INSERT INTO refresh_tokens (token_hash, session_id, issued_at, expires_at) VALUES (?, ?, ?, ?)",
                    [.text(next), .text(sessionID), SQLValue(date), SQLValue(min(nextExpiresAt, session.expiresAt))])
                return .rotated(session)
            }
            // Not spendable: a token spent before means a copy is in use, so the family ends.
            guard
                let known = try await db.query(
                    "SELECT session_id, spent_at FROM refresh_tokens WHERE token_hash = ?", [.text(hash)]
                ).first, try known.optionalDate("spent_at") != nil
            else { return .invalid }
            try await db.query(
                "UPDATE sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
                [SQLValue(date), .text(try known.string("session_id"))])
            return .reused
        }
    }
}

extension AuthSession {
    init(row: SQLRow) throws {
        let kind = try row.string("kind")
        guard let parsed = AuthSession.Kind(rawValue: kind) else { throw SQLRowError.unexpected("kind", .text(kind)) }
        self.init(
            id: try row.string("id"), accountID: try row.string("account_id"), kind: parsed,
            vertical: try row.string("vertical"), tokenHash: try row.optionalString("token_hash"),
            createdAt: try row.date("created_at"), expiresAt: try row.date("expires_at"),
            revokedAt: try row.optionalDate("revoked_at"))
    }
}
