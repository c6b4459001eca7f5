/// Runs SQL with `?` placeholders and bound values. Each engine translates placeholders to its
/// own syntax, so statements are written once where the dialects agree.
public protocol SQLExecutor: Sendable {
    var dialect: SQLDialect { get }
    @discardableResult
    func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow]
    /// The same, for the few statements that run on nearly every request: the engine may keep
    /// them prepared, so the database parses and plans them once per connection.
    @discardableResult
    func preparedQuery(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow]
}

extension SQLExecutor {
    /// Engines without a statement cache of their own run it like any other.
    @discardableResult
    public func preparedQuery(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        try await query(sql, binds)
    }
}

extension SQLExecutor {
    @discardableResult
    public func query(_ sql: String) async throws -> [SQLRow] {
        try await query(sql, [])
    }
}

/// A database engine: queries outside a transaction, and transactions that hold named locks.
public protocol SQLDatabase: SQLExecutor {
    /// Runs `body` in one transaction. Before it starts, the transaction takes an exclusive lock
    /// on each of `lockKeys` (in sorted order, so two transactions cannot deadlock on them); the
    /// locks are held until commit or rollback. A throwing `body` rolls back.
    func transaction<T: Sendable>(
        lockKeys: [String],
        _ body: @escaping @Sendable (any SQLExecutor) async throws -> T
    ) async throws -> T

    /// Closes the connections. The database cannot be used afterwards.
    func close() async throws
}

extension SQLDatabase {
    public func transaction<T: Sendable>(_ body: @escaping @Sendable (any SQLExecutor) async throws -> T) async throws
        -> T
    {
        try await transaction(lockKeys: [], body)
    }
}
