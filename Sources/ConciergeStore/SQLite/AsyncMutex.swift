/// A mutual-exclusion lock for async code: waiters are resumed in arrival order.
/// SQLite has one writer at a time, and a transaction's statements must not interleave with
/// another task's on the same connection, so every use of the connection goes through this.
actor AsyncMutex {
    private var locked = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var head = 0

    func lock() async {
        guard locked else {
            locked = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    func unlock() {
        guard head < waiters.count else {
            locked = false
            waiters.removeAll(keepingCapacity: true)
            head = 0
            return
        }
        let next = waiters[head]
        head += 1
        next.resume()
    }

    nonisolated func withLock<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        await lock()
        do {
            let result = try await body()
            await unlock()
            return result
        } catch {
            await unlock()
            throw error
        }
    }
}
