import Foundation

/// A mutual-exclusion lock for async code: waiters are resumed in arrival order.
/// SQLite has one writer at a time, and a transaction's statements must not interleave with
/// another task's on the same connection, so every use of the connection goes through this.
/// A plain lock guards the state, so taking a free mutex costs no hop to another executor.
final class AsyncMutex: @unchecked Sendable {
    private let state = NSLock()
    private var locked = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var head = 0

    func lock() async {
        if state.withLock({ tryTake() }) { return }
        await withCheckedContinuation { continuation in
            // Checked again under the lock: an unlock in between cannot miss this waiter.
            let taken = state.withLock {
                if tryTake() { return true }
                waiters.append(continuation)
                return false
            }
            if taken { continuation.resume() }
        }
    }

    func unlock() {
        let next: CheckedContinuation<Void, Never>? = state.withLock {
            guard head < waiters.count else {
                locked = false
                waiters.removeAll(keepingCapacity: true)
                head = 0
                return nil
            }
            // Ownership passes straight to the next waiter; `locked` stays true.
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
