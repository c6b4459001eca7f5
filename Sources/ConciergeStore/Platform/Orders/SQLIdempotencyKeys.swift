public import ConciergeCore
public import Foundation

/// `IdempotencyKeyStore` in SQL both engines understand, keyed by (scope, account, key).
public struct SQLIdempotencyKeys: IdempotencyKeyStore {
    private let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    public func claim(_ request: IdempotencyClaimRequest) async throws -> IdempotencyClaim {
        try await database.transaction { db in try await Self.claim(request, answer: nil, db: db) }
    }

    /// Claims the key inside the caller's transaction. With an `answer`, the claim is written
    /// already answered: the work and its answer commit together.
    static func claim(_ request: IdempotencyClaimRequest, answer: String?, db: any SQLExecutor) async throws
        -> IdempotencyClaim
    {
        let row = claimRow(request, answer: answer)
        let inserted = try await db.query(
            """
            INSERT INTO \(row.table) (\(row.columns.joined(separator: ", "))) VALUES \(row.placeholders)
            ON CONFLICT (\(conflictColumns.joined(separator: ", "))) DO NOTHING RETURNING key
            """, row.binds)
        if !inserted.isEmpty { return .claimed }
        // An abandoned claim: the conditional update lets exactly one retry take it over.
        let takenOver = try await db.query(
            """
            UPDATE idempotency_keys_v2 SET request_hash = ?, response = ?, created_at = ?
            WHERE scope = ? AND account_id = ? AND key = ? AND response IS NULL AND created_at < ? RETURNING key
            """,
            [
                .text(request.requestHash), SQLValue(answer), SQLValue(request.now), .text(request.scope),
                .text(request.accountID), .text(request.key), SQLValue(request.staleBefore),
            ])
        if !takenOver.isEmpty { return .claimed }
        return try await existing(request, db: db, ignoringStale: false) ?? .inProgress
    }

    /// The key's row for a new claim, answered already when `answer` is given.
    static func claimRow(_ request: IdempotencyClaimRequest, answer: String?) -> InsertRows {
        InsertRows(
            table: "idempotency_keys_v2",
            row: [
                ("scope", .text(request.scope)), ("account_id", .text(request.accountID)), ("key", .text(request.key)),
                ("request_hash", .text(request.requestHash)), ("response", SQLValue(answer)),
                ("created_at", SQLValue(request.now)),
            ])
    }

    /// What makes two claims the same key.
    static let conflictColumns = ["scope", "account_id", "key"]

    /// Stores the answer of a claim this request took earlier, inside the caller's transaction.
    /// `.claimed` when it was still this request's claim; otherwise what holds the key now (a
    /// retry took the claim over after it went stale).
    static func answer(_ answer: IdempotencyAnswer, db: any SQLExecutor) async throws -> IdempotencyClaim {
        let request = answer.claim
        let answered = try await db.query(
            """
            UPDATE idempotency_keys_v2 SET response = ?
            WHERE scope = ? AND account_id = ? AND key = ? AND request_hash = ? AND created_at = ? AND response IS NULL
            RETURNING key
            """,
            [
                .text(answer.response), .text(request.scope), .text(request.accountID), .text(request.key),
                .text(request.requestHash), SQLValue(request.now),
            ])
        if !answered.isEmpty { return .claimed }
        return try await existing(request, db: db, ignoringStale: false) ?? .inProgress
    }

    public func lookUp(_ request: IdempotencyClaimRequest) async throws -> IdempotencyClaim? {
        try await Self.existing(request, db: database, ignoringStale: true)
    }

    /// The key's row as a claim outcome; nil when there is none (or, with `ignoringStale`, when
    /// it is an abandoned claim a new request may take over).
    private static func existing(_ request: IdempotencyClaimRequest, db: any SQLExecutor, ignoringStale: Bool)
        async throws -> IdempotencyClaim?
    {
        guard
            let row = try await db.query(
                """
                SELECT request_hash, response, created_at FROM idempotency_keys_v2
                WHERE scope = ? AND account_id = ? AND key = ?
                """, [.text(request.scope), .text(request.accountID), .text(request.key)]
            ).first
        else { return nil }
        let sameRequest = try row.string("request_hash") == request.requestHash
        if let response = try row.optionalString("response") {
            return sameRequest ? .replay(response: response) : .mismatch
        }
        if ignoringStale, try row.date("created_at") < request.staleBefore { return nil }
        return sameRequest ? .inProgress : .mismatch
    }

    public func complete(scope: String, accountID: String, key: String, response: String) async throws {
        try await database.query(
            "UPDATE idempotency_keys_v2 SET response = ? WHERE scope = ? AND account_id = ? AND key = ?",
            [.text(response), .text(scope), .text(accountID), .text(key)])
    }

    public func release(scope: String, accountID: String, key: String) async throws {
        try await database.query(
            "DELETE FROM idempotency_keys_v2 WHERE scope = ? AND account_id = ? AND key = ? AND response IS NULL",
            [.text(scope), .text(accountID), .text(key)])
    }

    public func prune(before date: Date) async throws {
        try await database.query("DELETE FROM idempotency_keys_v2 WHERE created_at < ?", [SQLValue(date)])
    }
}
