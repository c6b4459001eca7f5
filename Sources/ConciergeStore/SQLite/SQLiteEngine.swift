public import Logging
import NIOCore
import SQLiteNIO

/// SQLite through one connection. SQLite allows one writer at a time anyway; funnelling every
/// statement through one connection behind an `AsyncMutex` makes transactions serial within the
/// process, and `BEGIN IMMEDIATE` plus a busy timeout keeps other processes out while one runs.
public final class SQLiteEngine: SQLDatabase {
    public let dialect = SQLDialect.sqlite
    private let connection: SQLiteConnection
    private let mutex = AsyncMutex()
    private let thread = DatabaseThread()

    /// Opens (creating if needed) the database at `path`, or an in-memory one for `":memory:"`.
    public static func open(path: String, logger: Logger) async throws -> SQLiteEngine {
        let storage: SQLiteConnection.Storage = path == ":memory:" ? .memory : .file(path: path)
        let connection = try await SQLiteConnection.open(storage: storage, logger: logger)
        let engine = SQLiteEngine(connection: connection)
        if path != ":memory:" {
            // WAL lets readers in other processes proceed while we write; NORMAL sync is
            // durable across application crashes (only an OS crash can lose the last commit).
            _ = try await connection.query("PRAGMA journal_mode=WAL", [])
            _ = try await connection.query("PRAGMA synchronous=NORMAL", [])
        }
        _ = try await connection.query("PRAGMA foreign_keys=ON", [])
        _ = try await connection.query("PRAGMA busy_timeout=5000", [])
        return engine
    }

    private init(connection: SQLiteConnection) {
        self.connection = connection
    }

    public func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        try await thread.run { try await mutex.withLock { try await self.run(sql, binds) } }
    }

    public func transaction<T: Sendable>(
        lockKeys: [String],
        _ body: @Sendable (any SQLExecutor) async throws -> T
    ) async throws -> T {
        // The mutex and the IMMEDIATE write lock cover every key at once.
        try await thread.run { try await self.locked(body) }
    }

    private func locked<T: Sendable>(_ body: @Sendable (any SQLExecutor) async throws -> T) async throws -> T {
        try await mutex.withLock {
            _ = try await self.run("BEGIN IMMEDIATE", [])
            do {
                let result = try await body(TransactionExecutor(engine: self))
                _ = try await self.run("COMMIT", [])
                return result
            } catch {
                _ = try? await self.run("ROLLBACK", [])
                throw error
            }
        }
    }

    public func close() async throws {
        try await connection.close()
        try await thread.shutdown()
    }

    fileprivate func run(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        // The connection's own async `query` runs the statement and reads every row in one job
        // on the thread pool. The protocol's convenience overload would bounce each row through
        // an event loop future instead: a third of the cost of a booking went there.
        let collector = RowCollector()
        try await connection.query(sql, binds.map(\.sqliteData)) { row in collector.rows.append(row) }
        return collector.rows.map { row in
            SQLRow(
                values: Dictionary(row.columns.map { ($0.name, SQLValue($0.data)) }, uniquingKeysWith: { a, _ in a }))
        }
    }

    /// Rows as the thread pool reads them: appended by one job, read after it finished.
    private final class RowCollector: @unchecked Sendable {
        var rows: [SQLiteRow] = []
    }

    /// Runs statements inside the transaction that already holds the mutex.
    private struct TransactionExecutor: SQLExecutor {
        let engine: SQLiteEngine
        var dialect: SQLDialect { .sqlite }
        func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
            try await engine.run(sql, binds)
        }
    }
}

extension SQLValue {
    fileprivate var sqliteData: SQLiteData {
        switch self {
        case .text(let value): .text(value)
        case .integer(let value): .integer(Int(value))
        case .real(let value): .float(value)
        case .null: .null
        }
    }

    fileprivate init(_ data: SQLiteData) {
        switch data {
        case .integer(let value): self = .integer(Int64(value))
        case .float(let value): self = .real(value)
        case .text(let value): self = .text(value)
        case .blob(let buffer): self = .text(String(buffer: buffer))
        case .null: self = .null
        }
    }
}
