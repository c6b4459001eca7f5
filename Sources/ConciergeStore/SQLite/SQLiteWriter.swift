import Foundation
import VaporCSQLite

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
    /// A dispatch queue runs on threads outside the cooperative pool (see `commit()`).
    private let committer = DispatchQueue(label: "concierge.sqlite.commit")

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
        var pending = group[...]
        while !pending.isEmpty { pending = await runTransaction(pending) }
    }

    /// Runs `group` in one transaction. If SQLite ends the transaction itself under a member
    /// (security review finding 15), everyone who ran in it is told it failed — their writes are
    /// gone — and the members that had not run yet are returned, to run in a new transaction:
    /// before this, they ran in autocommit mode, were committed, and were then told they failed.
    private func runTransaction(_ group: ArraySlice<QueuedWrite>) async -> ArraySlice<QueuedWrite> {
        let executor = Executor(connection: connection)
        do {
            _ = try connection.execute("BEGIN IMMEDIATE", [])
        } catch {
            for write in group { write.finish(error) }
            return []
        }
        for index in group.indices {
            let write = group[index]
            // A savepoint per request: its failure undoes its own writes only.
            do {
                _ = try connection.execute("SAVEPOINT request", [])
            } catch {
                write.finish(error)
                continue
            }
            let intact: Bool
            if await write.run(executor) {
                intact = (try? connection.execute("RELEASE request", [])) != nil
            } else {
                intact =
                    (try? connection.execute("ROLLBACK TO request", [])) != nil
                    && (try? connection.execute("RELEASE request", [])) != nil
            }
            if !intact || !connection.isInTransaction {
                _ = try? connection.execute("ROLLBACK", [])
                let lost = SQLiteFailure(
                    code: SQLITE_ABORT, message: "SQLite rolled the transaction back; nothing of this write was kept")
                for ran in group[...index] { ran.finish(lost) }
                return group[(index + 1)...]
            }
        }
        do {
            try await commit()
            for write in group { write.finish(nil) }
        } catch {
            _ = try? connection.execute("ROLLBACK", [])
            for write in group { write.finish(error) }
        }
        return []
    }

    /// Commits on a thread of its own. The commit waits for the disk (`fsync`, about 1.4 ms
    /// here); on a thread of Swift's cooperative pool (two threads on two cores) that wait took
    /// one of them away from every other request: in the seats benchmark the writer sat in
    /// `COMMIT` for a third of the time. The next group queues up meanwhile.
    private func commit() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            committer.async {
                continuation.resume(with: Result { _ = try self.connection.execute("COMMIT", []) })
            }
        }
    }

    /// Writes waiting for the next group (tests line up a group with it).
    var queuedCount: Int { lock.withLock { queue.count } }

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
