import VaporCSQLite

/// What SQLite said when a statement failed.
public struct SQLiteFailure: Error, CustomStringConvertible {
    public let code: Int32
    public let message: String
    public var description: String { "SQLite error \(code): \(message)" }
}

/// One `sqlite3*` handle with its prepared statements kept for reuse. Not thread-safe on its
/// own: `SQLiteEngine` only touches it while holding its mutex.
final class SQLiteConnection {
    private var handle: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]

    /// Opens `path` read-write (creating it) unless `flags` says otherwise.
    init(path: String, flags: Int32 = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) throws {
        var handle: OpaquePointer?
        let flags = flags | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
        let status = sqlite_nio_sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite_nio_sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite_nio_sqlite3_close_v2(handle)
            throw SQLiteFailure(code: status, message: "cannot open \(path): \(message)")
        }
        self.handle = handle
    }

    func execute(_ sql: String, _ binds: [SQLValue]) throws -> [SQLRow] {
        guard let handle else { throw SQLiteFailure(code: SQLITE_MISUSE, message: "the database is closed") }
        let statement = try prepared(sql, handle)
        // Every parameter is bound on every run, so a value left from the last run can never be
        // read; the bindings are not cleared. Clearing them expires a statement whose plan looked
        // at a bound value (an `x = ?` filter beside an index), and SQLite then prepared it again
        // on every run: 5 % of the seats benchmark's server time went to that.
        let expected = Int(sqlite_nio_sqlite3_bind_parameter_count(statement))
        guard expected == binds.count else {
            throw SQLiteFailure(
                code: SQLITE_RANGE,
                message: "the statement takes \(expected) parameters, \(binds.count) were given: \(sql)")
        }
        defer {
            sqlite_nio_sqlite3_reset(statement)
            // A large text (a venue's layout) is not kept alive in the statement cache until its next run.
            if binds.contains(where: { if case .text(let text) = $0 { text.utf8.count > 65_536 } else { false } }) {
                sqlite_nio_sqlite3_clear_bindings(statement)
            }
        }
        for (index, value) in binds.enumerated() {
            try check(bind(value, at: Int32(index + 1), in: statement), handle)
        }
        var rows: [SQLRow] = []
        let columns = (0..<sqlite_nio_sqlite3_column_count(statement)).map {
            String(cString: sqlite_nio_sqlite3_column_name(statement, $0))
        }
        while true {
            let status = sqlite_nio_sqlite3_step(statement)
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

    /// Whether a transaction is open. SQLite ends one on its own after some errors (an I/O
    /// error, out of memory), and then the connection is back in autocommit mode.
    var isInTransaction: Bool {
        handle.map { sqlite_nio_sqlite3_get_autocommit($0) == 0 } ?? false
    }

    func close() {
        for statement in statements.values { sqlite_nio_sqlite3_finalize(statement) }
        statements.removeAll()
        sqlite_nio_sqlite3_close_v2(handle)
        handle = nil
    }

    deinit { close() }

    private func prepared(_ sql: String, _ handle: OpaquePointer) throws -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        try check(
            sqlite_nio_sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil), handle)
        guard let statement else { throw SQLiteFailure(code: SQLITE_MISUSE, message: "empty statement: \(sql)") }
        statements[sql] = statement
        return statement
    }

    private func bind(_ value: SQLValue, at index: Int32, in statement: OpaquePointer) -> Int32 {
        switch value {
        // The byte count, not -1: with -1 SQLite stops at the first NUL and stores the text cut short.
        case .text(let text):
            sqlite_nio_sqlite3_bind_text(statement, index, text, Int32(text.utf8.count), Self.transient)
        case .integer(let integer): sqlite_nio_sqlite3_bind_int64(statement, index, integer)
        case .real(let real): sqlite_nio_sqlite3_bind_double(statement, index, real)
        case .null: sqlite_nio_sqlite3_bind_null(statement, index)
        }
    }

    private static func value(at index: Int32, in statement: OpaquePointer) -> SQLValue {
        switch sqlite_nio_sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER: .integer(sqlite_nio_sqlite3_column_int64(statement, index))
        case SQLITE_FLOAT: .real(sqlite_nio_sqlite3_column_double(statement, index))
        case SQLITE_NULL: .null
        default:
            // Text, and blobs read as UTF-8 text (the schema stores none).
            sqlite_nio_sqlite3_column_text(statement, index).map { .text(String(cString: $0)) } ?? .null
        }
    }

    private func check(_ status: Int32, _ handle: OpaquePointer) throws {
        guard status == SQLITE_OK else { throw failure(status, handle) }
    }

    private func failure(_ status: Int32, _ handle: OpaquePointer) -> any Error {
        let message = String(cString: sqlite_nio_sqlite3_errmsg(handle))
        // SQLITE_CONSTRAINT_UNIQUE and _PRIMARYKEY (SQLITE_CONSTRAINT | 8 << 8, | 6 << 8): the C
        // macros are expressions, which Swift does not import.
        switch sqlite_nio_sqlite3_extended_errcode(handle) {
        case SQLITE_CONSTRAINT | 8 << 8, SQLITE_CONSTRAINT | 6 << 8:
            // "UNIQUE constraint failed: table.column": the same error PostgreSQL's 23505 becomes.
            let column = message.split(separator: ": ", maxSplits: 1).last ?? ""
            return SQLUniqueViolation(table: column.split(separator: ".").first.map(String.init))
        default:
            return SQLiteFailure(code: status, message: message)
        }
    }

    /// Tells SQLite to copy bound text before `bind` returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
