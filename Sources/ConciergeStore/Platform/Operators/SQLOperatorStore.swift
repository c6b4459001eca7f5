public import ConciergeCore
import Foundation

/// `OperatorStore` in SQL both engines understand.
public struct SQLOperatorStore: OperatorStore {
    let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    public func add(_ operator: Operator, passwordHash: String) async throws {
        do {
            try await database.transaction { db in
                try await db.query(
                    "INSERT INTO accounts (id, display_name, created_at) VALUES (?, ?, ?)",
                    [.text(`operator`.accountID), .text("Operator \(`operator`.name)"), SQLValue(`operator`.createdAt)])
                try await db.query(
                    "INSERT INTO operators (id, name, account_id, password_hash, created_at) VALUES (?, ?, ?, ?, ?)",
                    [
                        .text(`operator`.id), .text(`operator`.name), .text(`operator`.accountID), .text(passwordHash),
                        SQLValue(`operator`.createdAt),
                    ])
            }
        } catch is SQLUniqueViolation {
            // Two adds of one name at once: the constraint, not the look-up before, decides.
            throw OperatorService.nameTaken
        }
    }

    public func `operator`(named name: String) async throws -> (Operator, passwordHash: String)? {
        guard let row = try await database.query("\(Self.select) WHERE name = ?", [.text(name)]).first else {
            return nil
        }
        return (try Self.operator(row), try row.string("password_hash"))
    }

    public func `operator`(accountID: String) async throws -> Operator? {
        try await database.query("\(Self.select) WHERE account_id = ?", [.text(accountID)]).first.map(Self.operator)
    }

    public func hasOperators() async throws -> Bool {
        !(try await database.query("SELECT id FROM operators LIMIT 1").isEmpty)
    }

    public func withRateEvents<T: Sendable>(
        locking keys: [String], _ body: @escaping @Sendable (any RateEventLog) async throws -> T
    ) async throws -> T {
        try await database.transaction(lockKeys: keys) { db in
            try await body(SQLIdentityTransaction(db: db))
        }
    }

    public func record(_ entry: OperatorAuditEntry) async throws {
        try await Self.insert(entry, in: database)
    }

    public func audit(limit: Int, offset: Int) async throws -> [OperatorAuditEntry] {
        try await database.query(
            """
            SELECT at, operator_account_id, operator_name, action, subject, detail FROM operator_audit
            ORDER BY seq DESC LIMIT ? OFFSET ?
            """, [.integer(Int64(limit)), .integer(Int64(offset))]
        ).map { row in
            OperatorAuditEntry(
                at: try row.date("at"), operatorAccountID: try row.string("operator_account_id"),
                operatorName: try row.string("operator_name"), action: try row.string("action"),
                subject: try row.string("subject"), detail: try row.string("detail"))
        }
    }

    /// Writes an entry with `db`: on its own, or inside the transaction of the action it records.
    static func insert(_ entry: OperatorAuditEntry, in db: any SQLExecutor) async throws {
        try await db.query(
            """
            INSERT INTO operator_audit (at, operator_account_id, operator_name, action, subject, detail)
            VALUES (?, ?, ?, ?, ?, ?)
            """,
            [
                SQLValue(entry.at), .text(entry.operatorAccountID), .text(entry.operatorName), .text(entry.action),
                .text(entry.subject), .text(entry.detail),
            ])
    }

    private static let select = "SELECT id, name, account_id, password_hash, created_at FROM operators"

    private static func `operator`(_ row: SQLRow) throws -> Operator {
        Operator(
            id: try row.string("id"), name: try row.string("name"), accountID: try row.string("account_id"),
            createdAt: try row.date("created_at"))
    }
}
