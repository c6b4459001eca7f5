public import ConciergeCore
public import Foundation

/// `OperatorAccountStore` over the accounts table: one idempotent insert.
public struct SQLOperatorAccountStore: OperatorAccountStore {
    let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    public func ensureOperatorAccount(id: String, name: String, at date: Date) async throws {
        try await database.query(
            "INSERT INTO accounts (id, display_name, created_at) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING",
            [.text(id), .text(name), SQLValue(date)])
    }
}
