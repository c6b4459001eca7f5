import ConciergeCore
import Synchronization

/// A hasher whose work waits until the test releases it (yielding, never sleeping), counting how
/// many run at once and noting which password each started hash or check was for, in order.
/// `release(n)` lets the first n started finish, in the order they started.
final class HeldHasher: PasswordHasher, Sendable {
    private struct State {
        var started: [String] = []
        var running = 0
        var mostAtOnce = 0
        var released = 0
    }

    private let state = Mutex(State())

    var started: Int { state.withLock { $0.started.count } }
    /// The passwords of the hashes and checks that started, in the order they did ("decoy" for the decoy).
    var startOrder: [String] { state.withLock { $0.started } }
    var mostAtOnce: Int { state.withLock { $0.mostAtOnce } }

    func release(_ count: Int) { state.withLock { $0.released += count } }

    func waitUntilStarted(_ count: Int) async {
        while started < count { await Task.yield() }
    }

    private func work<T>(_ password: String, _ result: T) async -> T {
        let ticket = state.withLock { state -> Int in
            state.started.append(password)
            state.running += 1
            state.mostAtOnce = max(state.mostAtOnce, state.running)
            return state.started.count
        }
        while state.withLock({ $0.released < ticket }) { await Task.yield() }
        state.withLock { $0.running -= 1 }
        return result
    }

    func hash(_ password: String) async throws -> String { await work(password, "hashed:\(password)") }
    func verify(_ password: String, against hash: String) async throws -> Bool {
        await work(password, hash == "hashed:\(password)")
    }
    func decoyHash() async throws -> String { await work("decoy", "hashed:decoy") }
}
