import Foundation
import VaporCSQLite

/// One SQLite file opened on its own, outside any engine: a backup being checked, or the
/// database a restore is about to replace. Statements run one at a time behind a lock.
public final class SQLiteFile: SQLExecutor, @unchecked Sendable {
    public let dialect = SQLDialect.sqlite
    private let connection: SQLiteConnection
    private let lock = NSLock()

    /// `readOnly`: opened with SQLite's read-only flag, so checking a backup leaves its bytes as they were.
    public init(path: String, readOnly: Bool) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            throw SQLiteFailure(code: SQLITE_CANTOPEN, message: "\(path) does not exist")
        }
        connection = try SQLiteConnection(
            path: path, flags: readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE)
        _ = try connection.execute("PRAGMA busy_timeout=0", [])
    }

    public func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        try lock.withLock { try connection.execute(sql, binds) }
    }

    /// `PRAGMA integrity_check`: `["ok"]` for a sound file, else what SQLite found wrong. A file
    /// too damaged to read at all answers with the error instead.
    public func integrityCheck() -> [String] {
        do {
            let rows = try lock.withLock { try connection.execute("PRAGMA integrity_check", []) }
            return rows.map { (try? $0.string("integrity_check")) ?? "unreadable answer" }
        } catch {
            return ["\(error)"]
        }
    }

    /// Takes the file out of WAL mode: everything in one file, which a checksum then covers.
    /// SQLite allows it only when no other connection has the database open, so it also tells
    /// whether a server is using the file: it throws `SQLiteFailure` with `SQLITE_BUSY` then.
    public func leaveWALMode() throws {
        let rows = try lock.withLock { try connection.execute("PRAGMA journal_mode=DELETE", []) }
        let mode = rows.first.flatMap { try? $0.string("journal_mode") } ?? ""
        guard mode.lowercased() == "delete" else {
            throw SQLiteFailure(code: SQLITE_BUSY, message: "the database is in use (journal mode stays \(mode))")
        }
    }

    public func close() {
        lock.withLock { connection.close() }
    }
}
