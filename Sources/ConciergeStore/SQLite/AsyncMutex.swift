import Foundation

/// A mutual-exclusion lock for async code: waiters are woken in arrival order.
/// SQLite has one writer at a time, and a transaction's statements must not interleave with
/// another task's on the same connection, so every use of the connection goes through this.
/// A plain lock guards the state, so taking a free mutex costs no hop to another executor.
final class AsyncMutex: @unchecked Sendable {
    private let state = NSLock()
    private var locked = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var head = 0

    func lock() async {
        while !state.withLock({ tryTake() }) {
            await withCheckedContinuation { continuation in
                // Checked again under the lock: an unlock in between cannot miss this waiter.
                let taken = state.withLock {
                    if !locked { return true }
                    waiters.append(continuation)
                    return false
                }
                if taken { continuation.resume() }
            }
        }
    }

    /// Takes the mutex if it is free, without waiting.
    func tryLock() -> Bool {
        state.withLock { tryTake() }
    }

    /// Frees the mutex and wakes the longest waiter to try again. The mutex is not handed to
    /// it: a waiter may sit in the executor's queue for a while, and a free mutex is better
    /// taken meanwhile by whoever is running than held idle for it.
    func unlock() {
        let next: CheckedContinuation<Void, Never>? = state.withLock {
            locked = false
            guard head < waiters.count else {
                waiters.removeAll(keepingCapacity: true)
                head = 0
                return nil
            }
            head += 1
            return waiters[head - 1]
        }
        next?.resume()
    }

    /// Call with `state` held.
    private func tryTake() -> Bool {
        guard !locked else { return false }
        locked = true
        return true
    }

    func withLock<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        await lock()
        do {
            let result = try await body()
            unlock()
            return result
        } catch {
            unlock()
            throw error
        }
    }
}
