import ConciergeCore
import Foundation

/// The statements of one account transaction.
struct SQLAccountTransaction: AccountTransaction {
    let db: any SQLExecutor

    // MARK: Rate events (the table SMS sign-in uses too)

    func rateEvents(key: String, since: Date) async throws -> [Date] {
        try await SQLIdentityTransaction(db: db).rateEvents(key: key, since: since)
    }

    func recordRateEvent(key: String, at date: Date, attemptID: String) async throws {
        try await SQLIdentityTransaction(db: db).recordRateEvent(key: key, at: date, attemptID: attemptID)
    }

    func pruneRateEvents(key: String, before date: Date) async throws {
        try await SQLIdentityTransaction(db: db).pruneRateEvents(key: key, before: date)
    }

    // MARK: Accounts and credentials

    func credential(kind: CredentialKind, identifier: String) async throws -> StoredCredential? {
        try await db.query(
            "SELECT * FROM account_credentials WHERE kind = ? AND identifier = ?",
            [.text(kind.rawValue), .text(identifier)]
        ).first.map(StoredCredential.init(row:))
    }

    func credentials(accountID: String) async throws -> [StoredCredential] {
        try await db.query(
            "SELECT * FROM account_credentials WHERE account_id = ? ORDER BY created_at, kind, identifier",
            [.text(accountID)]
        ).map(StoredCredential.init(row:))
    }

    func insertAccount(id: String, displayName: String?, at date: Date) async throws {
        try await db.query(
            "INSERT INTO accounts (id, display_name, created_at) VALUES (?, ?, ?)",
            [.text(id), SQLValue(displayName), SQLValue(date)])
    }

    func insertCredential(_ credential: StoredCredential) async throws -> Bool {
        // The primary key (kind, identifier) decides: of two accounts claiming one email at
        // once, one insert returns the row.
        !(try await db.query(
            """
            INSERT INTO account_credentials (kind, identifier, account_id, secret_hash, verified_at, created_at)
            VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (kind, identifier) DO NOTHING RETURNING identifier
            """,
            [
                .text(credential.kind.rawValue), .text(credential.identifier), .text(credential.accountID),
                SQLValue(credential.secretHash), SQLValue(credential.verifiedAt), SQLValue(credential.createdAt),
            ]
        ).isEmpty)
    }

    func markVerified(kind: CredentialKind, identifier: String, accountID: String, at date: Date) async throws -> Bool {
        !(try await db.query(
            """
            UPDATE account_credentials SET verified_at = COALESCE(verified_at, ?)
            WHERE kind = ? AND identifier = ? AND account_id = ? RETURNING identifier
            """, [SQLValue(date), .text(kind.rawValue), .text(identifier), .text(accountID)]
        ).isEmpty)
    }

    func setPassword(accountID: String, hash: String) async throws {
        try await db.query(
            "UPDATE account_credentials SET secret_hash = ? WHERE account_id = ? AND kind IN ('email', 'username')",
            [.text(hash), .text(accountID)])
    }

    func hasRidesProfile(accountID: String) async throws -> Bool {
        !(try await db.query("SELECT id FROM customers WHERE id = ?", [.text(accountID)]).isEmpty)
    }

    // MARK: Tokens

    func insertToken(_ token: AccountToken) async throws {
        try await db.query(
            """
            INSERT INTO account_tokens (token_hash, account_id, purpose, identifier, created_at, expires_at)
            VALUES (?, ?, ?, ?, ?, ?)
            """,
            [
                .text(token.tokenHash), .text(token.accountID), .text(token.purpose.rawValue), .text(token.identifier),
                SQLValue(token.createdAt), SQLValue(token.expiresAt),
            ])
    }

    func spendToken(hash: String, purpose: AccountToken.Purpose, at date: Date) async throws -> AccountToken? {
        try await db.query(
            """
            UPDATE account_tokens SET used_at = ?
            WHERE token_hash = ? AND purpose = ? AND used_at IS NULL AND expires_at > ?
            RETURNING *
            """, [SQLValue(date), .text(hash), .text(purpose.rawValue), SQLValue(date)]
        ).first.map { row in
            AccountToken(
                tokenHash: try row.string("token_hash"), accountID: try row.string("account_id"), purpose: purpose,
                identifier: try row.string("identifier"), createdAt: try row.date("created_at"),
                expiresAt: try row.date("expires_at"))
        }
    }

    func unspentToken(hash: String, purpose: AccountToken.Purpose, at date: Date) async throws -> AccountToken? {
        try await db.query(
            """
            SELECT * FROM account_tokens
            WHERE token_hash = ? AND purpose = ? AND used_at IS NULL AND expires_at > ?
            """, [.text(hash), .text(purpose.rawValue), SQLValue(date)]
        ).first.map { row in
            AccountToken(
                tokenHash: try row.string("token_hash"), accountID: try row.string("account_id"), purpose: purpose,
                identifier: try row.string("identifier"), createdAt: try row.date("created_at"),
                expiresAt: try row.date("expires_at"))
        }
    }

    func dropCredentials(accountID: String, keepingEmail keeping: String) async throws {
        try await db.query(
            "DELETE FROM account_credentials WHERE account_id = ? AND NOT (kind = 'email' AND identifier = ?)",
            [.text(accountID), .text(keeping)])
        try await db.query(
            "UPDATE account_credentials SET secret_hash = NULL WHERE account_id = ?", [.text(accountID)])
    }

    // MARK: Merging, erasing, sessions

    func mergeAccount(_ from: String, into: String, at date: Date) async throws {
        try await db.query(
            "UPDATE account_credentials SET account_id = ? WHERE account_id = ?", [.text(into), .text(from)])
        try await db.query("UPDATE sessions SET account_id = ? WHERE account_id = ?", [.text(into), .text(from)])
        try await db.query("DELETE FROM account_tokens WHERE account_id = ?", [.text(from)])
        // Every module's data follows: orders, rides, stays, events, commute (docs/privacy.md).
        try await AccountDataSteps.move(from: from, into: into, at: date, in: db)
        try await db.query(
            "UPDATE accounts SET display_name = NULL, deleted_at = ? WHERE id = ?", [SQLValue(date), .text(from)])
    }

    func revokeSessions(accountID: String, at date: Date) async throws {
        try await db.query(
            "UPDATE sessions SET revoked_at = ? WHERE account_id = ? AND revoked_at IS NULL",
            [SQLValue(date), .text(accountID)])
    }

    func eraseAccount(id: String, at date: Date) async throws {
        // Every module erases its part first, while the addresses to scrub from the outbox are
        // still there to read (docs/privacy.md).
        try await AccountDataSteps.erase(accountID: id, at: date, in: db)
        let phones = try await db.query(
            "SELECT identifier FROM account_credentials WHERE account_id = ? AND kind = 'phone'", [.text(id)]
        ).map { try $0.string("identifier") }
        // Sessions and their refresh tokens go: nothing can sign in as this account again.
        try await db.query(
            "DELETE FROM refresh_tokens WHERE session_id IN (SELECT id FROM sessions WHERE account_id = ?)",
            [.text(id)])
        try await db.query("DELETE FROM sessions WHERE account_id = ?", [.text(id)])
        try await db.query("DELETE FROM account_tokens WHERE account_id = ?", [.text(id)])
        try await db.query("DELETE FROM account_credentials WHERE account_id = ?", [.text(id)])
        for phone in phones {
            try await db.query("DELETE FROM code_challenges WHERE phone = ?", [.text(phone)])
            try await db.query("DELETE FROM rate_events WHERE key = ?", [.text("sms-send:phone:\(phone)")])
        }
        try await db.query(
            "UPDATE accounts SET display_name = NULL, deleted_at = COALESCE(deleted_at, ?) WHERE id = ?",
            [SQLValue(date), .text(id)])
    }

    // MARK: Outbox

    /// The one place accounts write to the notification outbox, in the caller's transaction;
    /// when the outbox grows its own writer, only this changes.
    func enqueueEmail(dedupeKey: String, to recipient: String, subject: String, body: String, at date: Date)
        async throws
    {
        try await db.query(
            """
            INSERT INTO notification_outbox
                (dedupe_key, channel, recipient, subject, body, status, attempts, next_attempt_at, created_at)
            VALUES (?, 'email', ?, ?, ?, 'pending', 0, ?, ?)
            ON CONFLICT (dedupe_key) DO NOTHING
            """,
            [.text(dedupeKey), .text(recipient), .text(subject), .text(body), SQLValue(date), SQLValue(date)])
    }
}
