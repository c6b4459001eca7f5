import Foundation
public import Logging
import VaporCSQLite

/// SQLite called directly: one writing connection and, for a database file, two reading ones.
/// SQLite allows one writer at a time anyway; every write goes through one connection, committed
/// in groups by `SQLiteWriter`, and `BEGIN IMMEDIATE` plus a busy timeout keeps other processes
/// out while a group runs. A plain `SELECT` outside a
/// transaction goes to a reader instead: in WAL mode it sees every committed write and does
/// not wait for the writer (session checks no longer queue behind bookings).
///
/// Statements run synchronously on the thread that holds the connection. They take
/// microseconds; handing each one to a thread pool and back (as SQLiteNIO does) made every
/// statement wait for two thread wake-ups while all other bookings waited for the lock, which
/// capped booking throughput at a third of what the same work costs inline.
public final class SQLiteEngine: SQLDatabase, @unchecked Sendable {
    public let dialect = SQLDialect.sqlite
    let writer: SQLiteWriter
    private let checkpointer: SQLiteCheckpointer?
    private let readers: SQLiteReaders?

    /// Opens (creating if needed) the database at `path`, or an in-memory one for `":memory:"`.
    public static func open(path: String, synchronous: SQLiteSynchronous = .full, logger: Logger) async throws
        -> SQLiteEngine
    {
        let connection = try SQLiteConnection(path: path)
        if path != ":memory:" {
            // Phones, emails and session hashes live here: owner only (security review finding
            // 26). SQLite gives the -wal and -shm files the database file's permissions.
            try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
            // WAL lets readers in other processes proceed while we write; FULL syncs every
            // commit group before it is acknowledged (NORMAL would survive only application crashes).
            // Small pages: a booking touches a dozen B-tree pages and each is written to the log
            // whole; 1 KB pages cut those bytes by three quarters (new databases only).
            _ = try connection.execute("PRAGMA page_size=1024", [])
            _ = try connection.execute("PRAGMA journal_mode=WAL", [])
            _ = try connection.execute("PRAGMA synchronous=\(synchronous.rawValue.uppercased())", [])
            // Checkpoints run on their own connection (see SQLiteCheckpointer), not in commits.
            _ = try connection.execute("PRAGMA wal_autocheckpoint=0", [])
            for suffix in ["-wal", "-shm"] {
                try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path + suffix)
            }
        }
        _ = try connection.execute("PRAGMA foreign_keys=ON", [])
        _ = try connection.execute("PRAGMA busy_timeout=5000", [])
        logger.debug("opened SQLite database", metadata: ["path": "\(path)"])
        // An in-memory database exists only in its one connection: no readers, no checkpoints.
        guard path != ":memory:" else { return SQLiteEngine(connection: connection, checkpointer: nil, readers: nil) }
        return SQLiteEngine(
            connection: connection, checkpointer: try SQLiteCheckpointer(path: path),
            readers: try SQLiteReaders(path: path, count: 2))
    }

    private init(connection: SQLiteConnection, checkpointer: SQLiteCheckpointer?, readers: SQLiteReaders?) {
        self.writer = SQLiteWriter(connection: connection)
        self.checkpointer = checkpointer
        self.readers = readers
    }

    public func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        if let readers, SQLiteReaders.isPlainRead(sql) {
            return try await readers.execute(sql, binds)
        }
        return try await writer.write { db in try await db.query(sql, binds) }
    }

    public func transaction<T: Sendable>(
        lockKeys: [String],
        _ body: @escaping @Sendable (any SQLExecutor) async throws -> T
    ) async throws -> T {
        // One writer at a time covers every key at once.
        try await writer.write(body)
    }

    public func close() async throws {
        try await readers?.close()
        await writer.close()
        checkpointer?.close()
    }
}
