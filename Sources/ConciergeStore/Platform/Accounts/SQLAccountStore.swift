public import ConciergeCore
import Foundation

/// `AccountStore` in SQL both engines understand.
public struct SQLAccountStore: AccountStore {
    private let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    public func transaction<T: Sendable>(
        locking keys: [String],
        _ body: @escaping @Sendable (any AccountTransaction) async throws -> T
    ) async throws -> T {
        try await database.transaction(lockKeys: keys) { db in
            try await body(SQLAccountTransaction(db: db))
        }
    }

    public func account(id: String) async throws -> AccountOverview? {
        guard
            let row = try await database.query(
                "SELECT * FROM accounts WHERE id = ? AND deleted_at IS NULL", [.text(id)]
            ).first
        else { return nil }
        return AccountOverview(
            id: try row.string("id"), displayName: try row.optionalString("display_name"),
            createdAt: try row.date("created_at"),
            credentials: try await SQLAccountTransaction(db: database).credentials(accountID: id))
    }
}

extension StoredCredential {
    init(row: SQLRow) throws {
        let kind = try row.string("kind")
        guard let parsed = CredentialKind(rawValue: kind) else {
            throw SQLRowError.unexpected("kind", .text(kind))
        }
        self.init(
            kind: parsed, identifier: try row.string("identifier"), accountID: try row.string("account_id"),
            secretHash: try row.optionalString("secret_hash"), verifiedAt: try row.optionalDate("verified_at"),
            createdAt: try row.date("created_at"))
    }
}
