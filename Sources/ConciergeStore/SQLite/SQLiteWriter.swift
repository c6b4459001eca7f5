import Foundation

/// Every write to a SQLite file, committed in groups.
///
/// SQLite commits one transaction at a time, and each commit writes every page it touched to the
/// log and takes and drops the file locks. Under load, bookings waited in line for the
/// connection, each to commit alone. Here a request that finds the connection busy leaves its
/// transaction in a queue; whoever holds the connection runs everything queued as one SQLite
/// transaction, each request's part in a savepoint of its own, and commits once. A part that
/// fails rolls back to its savepoint alone; nobody hears "done" before the commit, and if the
/// commit fails, everyone in the group hears so. With no contention a group is one request:
/// no waiting, no batching delay.
final class SQLiteWriter: @unchecked Sendable {
    private let connection: SQLiteConnection
    /// Held by whoever runs groups: one at a time on the connection.
    private let runner = AsyncMutex()
    private let lock = NSLock()
    private var queue: [QueuedWrite] = []

    init(connection: SQLiteConnection) {
        self.connection = connection
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any SQLExecutor) async throws -> T) async throws -> T {
        let outcome = Outcome<T>()
        let write = QueuedWrite(
            run: { executor in
                do {
                    outcome.stash(.success(try await body(executor)))
                    return true
                } catch {
                    outcome.stash(.failure(error))
                    return false
                }
            },
            finish: { commitError in outcome.deliver(commitError) })
        lock.withLock { queue.append(write) }
        await runQueuedGroups()
        return try await outcome.value()
    }

    /// Waits for the running group, then closes the connection.
    func close() async {
        await runner.lock()
        connection.close()
        runner.unlock()
    }

    /// Runs groups while there is work and nobody else is running them. Checked again after
    /// letting go, so a write queued while the last group finished is never left behind.
    private func runQueuedGroups() async {
        while lock.withLock({ !queue.isEmpty }), runner.tryLock() {
            while let group = takeQueue() {
                await run(group)
            }
            runner.unlock()
        }
    }

    private func takeQueue() -> [QueuedWrite]? {
        lock.withLock {
            guard !queue.isEmpty else { return nil }
            defer { queue.removeAll(keepingCapacity: true) }
            return queue
        }
    }

    private func run(_ group: [QueuedWrite]) async {
        let executor = Executor(connection: connection)
        do {
            _ = try connection.execute("BEGIN IMMEDIATE", [])
        } catch {
            for write in group { write.finish(error) }
            return
        }
        for write in group {
            // A savepoint per request: its failure undoes its own writes only.
            do {
                _ = try connection.execute("SAVEPOINT request", [])
            } catch {
                write.finish(error)
                continue
            }
            if await write.run(executor) {
                _ = try? connection.execute("RELEASE request", [])
            } else {
                _ = try? connection.execute("ROLLBACK TO request", [])
                _ = try? connection.execute("RELEASE request", [])
            }
        }
        do {
            _ = try connection.execute("COMMIT", [])
            for write in group { write.finish(nil) }
        } catch {
            _ = try? connection.execute("ROLLBACK", [])
            for write in group { write.finish(error) }
        }
    }

    private struct QueuedWrite: Sendable {
        /// Runs the request's statements; false when its body threw.
        let run: @Sendable (any SQLExecutor) async -> Bool
        /// Tells the request how it ended: its own result, or the group's commit error.
        let finish: @Sendable ((any Error)?) -> Void
    }

    /// Statements inside the running group.
    private struct Executor: SQLExecutor, @unchecked Sendable {
        let connection: SQLiteConnection
        var dialect: SQLDialect { .sqlite }
        func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
            try connection.execute(sql, binds)
        }
    }
}

/// A request's result, kept until its group has committed, then handed to the waiting request.
private final class Outcome<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stashed: Result<T, any Error>?
    private var delivered: Result<T, any Error>?
    private var waiter: CheckedContinuation<T, any Error>?

    func stash(_ result: Result<T, any Error>) {
        lock.withLock { stashed = result }
    }

    func deliver(_ commitError: (any Error)?) {
        let (waiter, result): (CheckedContinuation<T, any Error>?, Result<T, any Error>) = lock.withLock {
            let result: Result<T, any Error> =
                if let commitError { .failure(commitError) } else {
                    stashed ?? .failure(SQLiteFailure(code: 1, message: "the write did not run"))
                }
            delivered = result
            defer { self.waiter = nil }
            return (self.waiter, result)
        }
        waiter?.resume(with: result)
    }

    func value() async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let ready: Result<T, any Error>? = lock.withLock {
                if let delivered { return delivered }
                waiter = continuation
                return nil
            }
            if let ready { continuation.resume(with: ready) }
        }
    }
}
