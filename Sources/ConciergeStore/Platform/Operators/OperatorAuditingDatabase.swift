import ConciergeCore
import Foundation

/// The database as the application sees it, writing an operator's audit entry into the
/// transaction that makes the operator's change (see `OperatorAction`): while an action runs,
/// the first transaction to commit carries the entry, and a transaction that rolls back takes
/// the entry with it and leaves it to the next. Outside an operator's action it adds nothing but
/// a task-local read per transaction.
public struct OperatorAuditingDatabase: SQLDatabase {
    private let upstream: any SQLDatabase

    public init(wrapping upstream: any SQLDatabase) {
        self.upstream = upstream
    }

    public var dialect: SQLDialect { upstream.dialect }

    public func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        try await upstream.query(sql, binds)
    }

    public func preparedQuery(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        try await upstream.preparedQuery(sql, binds)
    }

    public func transaction<T: Sendable>(
        lockKeys: [String], _ body: @escaping @Sendable (any SQLExecutor) async throws -> T
    ) async throws -> T {
        guard let action = OperatorAction.current else {
            return try await upstream.transaction(lockKeys: lockKeys, body)
        }
        let token = UUID()
        do {
            return try await upstream.transaction(lockKeys: lockKeys) { db in
                let result = try await body(db)
                if let entry = action.claim(token) { try await SQLOperatorStore.insert(entry, in: db) }
                return result
            }
        } catch {
            action.release(token)
            throw error
        }
    }

    public func close() async throws {
        try await upstream.close()
    }
}
