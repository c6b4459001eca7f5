import CSQLite
import Foundation
public import Logging

/// SQLite through one connection, called directly. SQLite allows one writer at a time anyway;
/// funnelling every statement through one connection behind an `AsyncMutex` makes transactions
/// serial within the process, and `BEGIN IMMEDIATE` plus a busy timeout keeps other processes
/// out while one runs.
///
/// Statements run synchronously on the caller's thread while it holds the mutex. They take
/// microseconds; handing each one to a thread pool and back (as SQLiteNIO does) made every
/// statement wait for two thread wake-ups while all other bookings waited for the lock, which
/// capped booking throughput at a third of what the same work costs inline.
public final class SQLiteEngine: SQLDatabase, @unchecked Sendable {
    public let dialect = SQLDialect.sqlite
    private let connection: SQLiteConnection
    private let mutex = AsyncMutex()

    /// Opens (creating if needed) the database at `path`, or an in-memory one for `":memory:"`.
    public static func open(path: String, logger: Logger) async throws -> SQLiteEngine {
        let connection = try SQLiteConnection(path: path)
        if path != ":memory:" {
            // WAL lets readers in other processes proceed while we write; NORMAL sync is
            // durable across application crashes (only an OS crash can lose the last commit).
            _ = try connection.execute("PRAGMA journal_mode=WAL", [])
            _ = try connection.execute("PRAGMA synchronous=NORMAL", [])
        }
        _ = try connection.execute("PRAGMA foreign_keys=ON", [])
        _ = try connection.execute("PRAGMA busy_timeout=5000", [])
        logger.debug("opened SQLite database", metadata: ["path": "\(path)"])
        return SQLiteEngine(connection: connection)
    }

    private init(connection: SQLiteConnection) {
        self.connection = connection
    }

    public func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        try await mutex.withLock { try self.connection.execute(sql, binds) }
    }

    public func transaction<T: Sendable>(
        lockKeys: [String],
        _ body: @Sendable (any SQLExecutor) async throws -> T
    ) async throws -> T {
        // The mutex and the IMMEDIATE write lock cover every key at once.
        try await mutex.withLock {
            _ = try self.connection.execute("BEGIN IMMEDIATE", [])
            do {
                let result = try await body(TransactionExecutor(connection: self.connection))
                _ = try self.connection.execute("COMMIT", [])
                return result
            } catch {
                _ = try? self.connection.execute("ROLLBACK", [])
                throw error
            }
        }
    }

    public func close() async throws {
        try await mutex.withLock { self.connection.close() }
    }

    /// Runs statements inside the transaction that already holds the mutex.
    private struct TransactionExecutor: SQLExecutor, @unchecked Sendable {
        let connection: SQLiteConnection
        var dialect: SQLDialect { .sqlite }
        func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
            try connection.execute(sql, binds)
        }
    }
}

/// What SQLite said when a statement failed.
public struct SQLiteFailure: Error, CustomStringConvertible {
    public let code: Int32
    public let message: String
    public var description: String { "SQLite error \(code): \(message)" }
}

/// One `sqlite3*` handle with its prepared statements kept for reuse. Not thread-safe on its
/// own: `SQLiteEngine` only touches it while holding its mutex.
private final class SQLiteConnection {
    private var handle: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]

    init(path: String) throws {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            throw SQLiteFailure(code: status, message: "cannot open \(path): \(message)")
        }
        self.handle = handle
    }

    func execute(_ sql: String, _ binds: [SQLValue]) throws -> [SQLRow] {
        guard let handle else { throw SQLiteFailure(code: SQLITE_MISUSE, message: "the database is closed") }
        let statement = try prepared(sql, handle)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (index, value) in binds.enumerated() {
            try check(bind(value, at: Int32(index + 1), in: statement), handle)
        }
        var rows: [SQLRow] = []
        let columns = (0..<sqlite3_column_count(statement)).map { String(cString: sqlite3_column_name(statement, $0)) }
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { return rows }
            guard status == SQLITE_ROW else { throw failure(status, handle) }
            var values: [String: SQLValue] = [:]
            values.reserveCapacity(columns.count)
            for (index, name) in columns.enumerated() where values[name] == nil {
                values[name] = Self.value(at: Int32(index), in: statement)
            }
            rows.append(SQLRow(values: values))
        }
    }

    func close() {
        for statement in statements.values { sqlite3_finalize(statement) }
        statements.removeAll()
        sqlite3_close_v2(handle)
        handle = nil
    }

    deinit { close() }

    private func prepared(_ sql: String, _ handle: OpaquePointer) throws -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        try check(sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil), handle)
        guard let statement else { throw SQLiteFailure(code: SQLITE_MISUSE, message: "empty statement: \(sql)") }
        statements[sql] = statement
        return statement
    }

    private func bind(_ value: SQLValue, at index: Int32, in statement: OpaquePointer) -> Int32 {
        switch value {
        case .text(let text): sqlite3_bind_text(statement, index, text, -1, Self.transient)
        case .integer(let integer): sqlite3_bind_int64(statement, index, integer)
        case .real(let real): sqlite3_bind_double(statement, index, real)
        case .null: sqlite3_bind_null(statement, index)
        }
    }

    private static func value(at index: Int32, in statement: OpaquePointer) -> SQLValue {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER: .integer(sqlite3_column_int64(statement, index))
        case SQLITE_FLOAT: .real(sqlite3_column_double(statement, index))
        case SQLITE_NULL: .null
        default:
            // Text, and blobs read as UTF-8 text (the schema stores none).
            sqlite3_column_text(statement, index).map { .text(String(cString: $0)) } ?? .null
        }
    }

    private func check(_ status: Int32, _ handle: OpaquePointer) throws {
        guard status == SQLITE_OK else { throw failure(status, handle) }
    }

    private func failure(_ status: Int32, _ handle: OpaquePointer) -> SQLiteFailure {
        SQLiteFailure(code: status, message: String(cString: sqlite3_errmsg(handle)))
    }

    /// Tells SQLite to copy bound text before `bind` returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
