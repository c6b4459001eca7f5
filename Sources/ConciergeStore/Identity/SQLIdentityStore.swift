public import ConciergeCore
public import Foundation

/// `IdentityStore` in SQL that both engines understand.
public struct SQLIdentityStore: IdentityStore {
    private let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    public func transaction<T: Sendable>(
        locking keys: [String],
        _ body: @escaping @Sendable (any IdentityTransaction) async throws -> T
    ) async throws -> T {
        try await database.transaction(lockKeys: keys) { db in
            try await body(SQLIdentityTransaction(db: db))
        }
    }

    /// Forgets rate events older than `date`: no limit looks back further than a day, and every
    /// new phone and address would otherwise leave its rows behind for good.
    public func sweepRateEvents(before date: Date) async throws {
        try await database.query("DELETE FROM rate_events WHERE occurred_at < ?", [SQLValue(date)])
    }

    public func customer(id: String) async throws -> Customer? {
        try await database.query("SELECT * FROM customers WHERE id = ?", [.text(id)]).first.map(Customer.init(row:))
    }

    public func updateCustomer(id: String, name: String?, email: String?) async throws -> Customer? {
        try await database.query(
            "UPDATE customers SET name = ?, email = ? WHERE id = ? RETURNING *",
            [SQLValue(name), SQLValue(email), .text(id)]
        ).first.map(Customer.init(row:))
    }

    public func session(tokenHash: String) async throws -> (StoredSession, Customer)? {
        // Every signed-in request asks: kept prepared.
        let rows = try await database.preparedQuery(
            """
            SELECT s.token_hash, s.account_id, s.created_at AS session_created_at, s.expires_at, s.revoked_at,
                   c.id, c.phone, c.name, c.email, c.created_at
            FROM sessions s JOIN customers c ON c.id = s.account_id
            WHERE s.token_hash = ?
            """, [.text(tokenHash)])
        guard let row = rows.first else { return nil }
        let session = StoredSession(
            tokenHash: try row.string("token_hash"), customerID: try row.string("account_id"),
            createdAt: try row.date("session_created_at"), expiresAt: try row.date("expires_at"),
            revokedAt: try row.optionalDate("revoked_at"))
        return (session, try Customer(row: row))
    }

    public func revokeSession(tokenHash: String, at date: Date) async throws -> Bool {
        !(try await database.query(
            "UPDATE sessions SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL RETURNING token_hash",
            [SQLValue(date), .text(tokenHash)]
        ).isEmpty)
    }
}

/// The statements of one sign-in transaction.
struct SQLIdentityTransaction: IdentityTransaction {
    let db: any SQLExecutor

    func rateEvents(key: String, since: Date) async throws -> [Date] {
        try await db.query(
            "SELECT occurred_at FROM rate_events WHERE key = ? AND occurred_at >= ? ORDER BY occurred_at",
            [.text(key), SQLValue(since)]
        ).map { try $0.date("occurred_at") }
    }

    func recordRateEvent(key: String, at date: Date, attemptID: String) async throws {
        try await db.query(
            "INSERT INTO rate_events (key, occurred_at, attempt_id) VALUES (?, ?, ?)",
            [.text(key), SQLValue(date), .text(attemptID)])
    }

    func pruneRateEvents(key: String, before date: Date) async throws {
        try await db.query("DELETE FROM rate_events WHERE key = ? AND occurred_at < ?", [.text(key), SQLValue(date)])
    }

    func deleteRateEvents(attemptID: String, keys: [String]) async throws {
        for key in keys {
            try await db.query(
                "DELETE FROM rate_events WHERE attempt_id = ? AND key = ?", [.text(attemptID), .text(key)])
        }
    }

    func challenge(phone: PhoneNumber) async throws -> CodeChallenge? {
        try await db.query("SELECT * FROM code_challenges WHERE phone = ?", [.text(phone.e164)]).first.map { row in
            CodeChallenge(
                id: try row.string("id"), phone: PhoneNumber(trustedE164: try row.string("phone")),
                codeHash: try row.optionalString("code_hash"), sentAt: try row.date("sent_at"),
                expiresAt: try row.date("expires_at"), wrongGuesses: try row.int("wrong_guesses"))
        }
    }

    func replaceChallenge(_ challenge: CodeChallenge) async throws {
        try await db.query(
            """
            INSERT INTO code_challenges (phone, id, code_hash, sent_at, expires_at, wrong_guesses)
            VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (phone) DO UPDATE SET id = excluded.id, code_hash = excluded.code_hash,
                sent_at = excluded.sent_at, expires_at = excluded.expires_at, wrong_guesses = excluded.wrong_guesses
            """,
            [
                .text(challenge.phone.e164), .text(challenge.id), SQLValue(challenge.codeHash),
                SQLValue(challenge.sentAt), SQLValue(challenge.expiresAt), SQLValue(challenge.wrongGuesses),
            ])
    }

    func reserveGuess(phone: PhoneNumber, challengeID: String, maxGuesses: Int) async throws -> Int? {
        try await db.query(
            """
            UPDATE code_challenges SET wrong_guesses = wrong_guesses + 1
            WHERE phone = ? AND id = ? AND wrong_guesses < ?
            RETURNING wrong_guesses
            """, [.text(phone.e164), .text(challengeID), SQLValue(maxGuesses)]
        ).first.map { try $0.int("wrong_guesses") }
    }

    func releaseGuess(phone: PhoneNumber, challengeID: String) async throws {
        try await db.query(
            "UPDATE code_challenges SET wrong_guesses = wrong_guesses - 1 WHERE phone = ? AND id = ? AND wrong_guesses > 0",
            [.text(phone.e164), .text(challengeID)])
    }

    func deleteChallenge(phone: PhoneNumber, challengeID: String) async throws -> Bool {
        !(try await db.query(
            "DELETE FROM code_challenges WHERE phone = ? AND id = ? RETURNING id",
            [.text(phone.e164), .text(challengeID)]
        ).isEmpty)
    }

    func customer(phone: PhoneNumber) async throws -> Customer? {
        try await db.query("SELECT * FROM customers WHERE phone = ?", [.text(phone.e164)]).first.map(
            Customer.init(row:))
    }

    func accountID(phone: PhoneNumber) async throws -> String? {
        try await db.query(
            "SELECT account_id FROM account_credentials WHERE kind = 'phone' AND identifier = ?", [.text(phone.e164)]
        ).first.map { try $0.string("account_id") }
    }

    func insertCustomer(_ customer: Customer) async throws {
        // The account first (sessions and credentials reference it); both are no-ops for a
        // phone that was linked to an existing account.
        try await db.query(
            "INSERT INTO accounts (id, display_name, created_at) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING",
            [.text(customer.id), SQLValue(customer.name), SQLValue(customer.createdAt)])
        try await db.query(
            """
            INSERT INTO account_credentials (kind, identifier, account_id, verified_at, created_at)
            VALUES ('phone', ?, ?, ?, ?) ON CONFLICT (kind, identifier) DO NOTHING
            """,
            [
                .text(customer.phone.e164), .text(customer.id), SQLValue(customer.createdAt),
                SQLValue(customer.createdAt),
            ])
        try await db.query(
            "INSERT INTO customers (id, phone, name, email, created_at) VALUES (?, ?, ?, ?, ?)",
            [
                .text(customer.id), .text(customer.phone.e164), SQLValue(customer.name), SQLValue(customer.email),
                SQLValue(customer.createdAt),
            ])
    }

    func insertSession(_ session: StoredSession) async throws {
        try await db.query(
            """
            INSERT INTO sessions (id, account_id, kind, vertical, token_hash, created_at, expires_at, revoked_at)
            VALUES (?, ?, 'bearer', 'rides', ?, ?, ?, ?)
            """,
            [
                // Named after its token's keyed hash, as the rows carried over from the rides table are.
                .text("ses_" + session.tokenHash), .text(session.customerID), .text(session.tokenHash),
                SQLValue(session.createdAt), SQLValue(session.expiresAt), SQLValue(session.revokedAt),
            ])
    }
}

extension Customer {
    init(row: SQLRow) throws {
        self.init(
            id: try row.string("id"), phone: PhoneNumber(trustedE164: try row.string("phone")),
            name: try row.optionalString("name"), email: try row.optionalString("email"),
            createdAt: try row.date("created_at"))
    }
}
