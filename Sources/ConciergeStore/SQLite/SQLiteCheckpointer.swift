import Dispatch
import Foundation

/// Moves committed pages from the write-ahead log into the database file, off the request path.
///
/// SQLite's automatic checkpoint runs inside whichever commit crosses 1,000 WAL pages, and
/// ends with an fsync: under booking load that was dozens of times a second, each time with
/// the connection's lock held and every other request waiting on the disk. Here a second
/// connection of its own runs a passive checkpoint (it never blocks writers) every second on a
/// queue of its own, and truncates the log when the server closes.
final class SQLiteCheckpointer: @unchecked Sendable {
    private let connection: SQLiteConnection
    private let queue = DispatchQueue(label: "concierge.sqlite.checkpoint")
    private let timer: any DispatchSourceTimer

    init(path: String, interval: DispatchTimeInterval = .seconds(1)) throws {
        let connection = try SQLiteConnection(path: path)
        _ = try connection.execute("PRAGMA busy_timeout=5000", [])
        self.connection = connection
        timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { _ = try? connection.execute("PRAGMA wal_checkpoint(PASSIVE)", []) }
        timer.resume()
    }

    /// Stops the timer, checkpoints everything and empties the log.
    func close() {
        timer.cancel()
        queue.sync {
            _ = try? connection.execute("PRAGMA wal_checkpoint(TRUNCATE)", [])
            connection.close()
        }
    }
}
