import Foundation
import VaporCSQLite

/// Read-only connections to a WAL database, each behind its own mutex, taken in turn.
final class SQLiteReaders: @unchecked Sendable {
    private let connections: [(connection: SQLiteConnection, mutex: AsyncMutex)]
    private let turn = NSLock()
    private var next = 0

    init(path: String, count: Int) throws {
        connections = try (0..<count).map { _ in
            let connection = try SQLiteConnection(path: path, flags: SQLITE_OPEN_READONLY)
            _ = try connection.execute("PRAGMA busy_timeout=5000", [])
            return (connection, AsyncMutex())
        }
    }

    /// A lone `SELECT` (or `WITH … SELECT`): it reads the last committed state and changes nothing.
    static func isPlainRead(_ sql: String) -> Bool {
        let start = sql.drop { $0.isWhitespace }.prefix(6).uppercased()
        return start == "SELECT"
    }

    func execute(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        let reader = turn.withLock {
            next = (next + 1) % connections.count
            return connections[next]
        }
        return try await reader.mutex.withLock { try reader.connection.execute(sql, binds) }
    }

    func close() async throws {
        for reader in connections {
            try await reader.mutex.withLock { reader.connection.close() }
        }
    }
}
