import Foundation
import VaporCSQLite

/// Copies a live SQLite database with SQLite's online backup API while the server writes to it.
///
/// The source connection opens one read transaction first and keeps it until the copy is done:
/// in WAL mode a reader blocks no writer, and the copy is the database exactly as it stood when
/// that transaction began (every commit acknowledged before it is in, none after). Without it,
/// SQLite restarts a stepwise backup whenever another connection commits, and under booking load
/// a copy in small steps would never end. The pages go over in batches of `pagesPerStep` with a
/// `pause` between them, so the copy never hogs the disk; no step takes the writer's lock.
public enum SQLiteOnlineBackup {
    /// Copies `source` into a new file at `destination` (replaced if present); returns the pages copied.
    @discardableResult
    public static func copy(
        from source: String, to destination: String, pagesPerStep: Int32 = 512, pause: Duration = .milliseconds(1)
    ) async throws -> Int {
        try? FileManager.default.removeItem(atPath: destination)
        let from = try RawHandle(path: source, flags: SQLITE_OPEN_READONLY)
        let to = try RawHandle(path: destination, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        // The snapshot: a read transaction that has read something.
        try from.exec("PRAGMA busy_timeout=5000")
        try from.exec("BEGIN")
        defer { try? from.exec("COMMIT") }
        try from.exec("SELECT count(*) FROM sqlite_master")
        guard let backup = sqlite_nio_sqlite3_backup_init(to.handle, "main", from.handle, "main") else {
            throw to.failure(SQLITE_ERROR, "cannot start the backup")
        }
        var status = SQLITE_OK
        while status == SQLITE_OK || status == SQLITE_BUSY || status == SQLITE_LOCKED {
            status = sqlite_nio_sqlite3_backup_step(backup, pagesPerStep)
            if status == SQLITE_DONE { break }
            try await Task.sleep(for: pause)
        }
        let pages = Int(sqlite_nio_sqlite3_backup_pagecount(backup))
        let finished = sqlite_nio_sqlite3_backup_finish(backup)
        guard status == SQLITE_DONE, finished == SQLITE_OK else {
            throw to.failure(status == SQLITE_DONE ? finished : status, "the backup stopped")
        }
        return pages
    }
}

/// A bare `sqlite3*` for the backup API, closed when released.
final class RawHandle {
    let handle: OpaquePointer

    init(path: String, flags: Int32) throws {
        var handle: OpaquePointer?
        let status = sqlite_nio_sqlite3_open_v2(path, &handle, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite_nio_sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite_nio_sqlite3_close_v2(handle)
            throw SQLiteFailure(code: status, message: "cannot open \(path): \(message)")
        }
        self.handle = handle
    }

    func exec(_ sql: String) throws {
        let status = sqlite_nio_sqlite3_exec(handle, sql, nil, nil, nil)
        guard status == SQLITE_OK else { throw failure(status, sql) }
    }

    func failure(_ status: Int32, _ what: String) -> SQLiteFailure {
        SQLiteFailure(code: status, message: "\(what): \(String(cString: sqlite_nio_sqlite3_errmsg(handle)))")
    }

    deinit { sqlite_nio_sqlite3_close_v2(handle) }
}
