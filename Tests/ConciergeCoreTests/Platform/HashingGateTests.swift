import ConciergeCore
import Synchronization
import Testing

/// The gate every password hash passes (finding 3): at most `slots` at once, at most
/// `queueLimit` waiting in arrival order, 503 `busy` with Retry-After past that.
@Suite struct HashingGateTests {
    @Test func twoSlotsRunTwoHashesTheThirdWaitsAndTheFourthIsRefused() async throws {
        let hasher = HeldHasher()
        let gate = HashingGate(hasher, slots: 2, queueLimit: 1)
        let first = Task { try await gate.hash("one") }
        let second = Task { try await gate.hash("two") }
        await hasher.waitUntilStarted(2)
        let third = Task { try await gate.hash("three") }
        while await gate.load.waiting < 1 { await Task.yield() }
        await expectLoad(gate, running: 2, waiting: 1)
        #expect(hasher.started == 2)

        let refused = await #expect(throws: ConciergeError.self) { try await gate.hash("four") }
        #expect(refused?.code == "busy")
        #expect(refused?.category == .unavailable(retryAfterSeconds: 1))

        // A finished hash hands its slot to the one waiting, never a third at once.
        hasher.release(1)
        _ = try await first.value
        await hasher.waitUntilStarted(3)
        await expectLoad(gate, running: 2, waiting: 0)
        hasher.release(2)
        #expect(try await second.value == "hashed:two")
        #expect(try await third.value == "hashed:three")
        #expect(hasher.mostAtOnce == 2)
        await expectLoad(gate, running: 0, waiting: 0)
    }

    @Test func checksAndTheDecoyPassTheSameSlots() async throws {
        let hasher = HeldHasher()
        let gate = HashingGate(hasher, slots: 1, queueLimit: 0)
        let check = Task { try await gate.verify("pw", against: "hashed:pw") }
        await hasher.waitUntilStarted(1)
        await #expect(throws: ConciergeError.self) { try await gate.decoyHash() }
        hasher.release(1)
        #expect(try await check.value)
        await expectLoad(gate, running: 0, waiting: 0)
    }

    @Test func aFailingHashGivesItsSlotBack() async throws {
        let gate = HashingGate(FailingHasher(), slots: 1, queueLimit: 0)
        for _ in 0..<3 {
            await #expect(throws: FailingHasher.Failure.self) { try await gate.hash("x") }
        }
        await expectLoad(gate, running: 0, waiting: 0)
    }
}

private func expectLoad(
    _ gate: HashingGate, running: Int, waiting: Int, sourceLocation: SourceLocation = #_sourceLocation
) async {
    let load = await gate.load
    #expect(load.running == running && load.waiting == waiting, sourceLocation: sourceLocation)
}

/// A hasher whose work waits until the test releases it, counting how many run at once.
private final class HeldHasher: PasswordHasher, Sendable {
    private struct State {
        var started = 0
        var running = 0
        var mostAtOnce = 0
        var released = 0
    }

    private let state = Mutex(State())

    var started: Int { state.withLock { $0.started } }
    var mostAtOnce: Int { state.withLock { $0.mostAtOnce } }

    func release(_ count: Int) { state.withLock { $0.released += count } }

    func waitUntilStarted(_ count: Int) async {
        while started < count { await Task.yield() }
    }

    private func work<T>(_ result: T) async -> T {
        let ticket = state.withLock { state -> Int in
            state.started += 1
            state.running += 1
            state.mostAtOnce = max(state.mostAtOnce, state.running)
            return state.started
        }
        while state.withLock({ $0.released < ticket }) { await Task.yield() }
        state.withLock { $0.running -= 1 }
        return result
    }

    func hash(_ password: String) async throws -> String { await work("hashed:\(password)") }
    func verify(_ password: String, against hash: String) async throws -> Bool {
        await work(hash == "hashed:\(password)")
    }
    func decoyHash() async throws -> String { await work("hashed:decoy") }
}

private struct FailingHasher: PasswordHasher {
    struct Failure: Error {}
    func hash(_ password: String) async throws -> String { throw Failure() }
    func verify(_ password: String, against hash: String) async throws -> Bool { throw Failure() }
    func decoyHash() async throws -> String { throw Failure() }
}
