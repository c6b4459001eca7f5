import ConciergeCore
import Testing

/// The gate every password hash passes (finding 3): at most `slots` at once, at most
/// `queueLimit` of a kind waiting in arrival order, 503 `busy` with Retry-After past that.
/// Which kind goes first is in `HashingGatePrecedenceTests`.
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

private struct FailingHasher: PasswordHasher {
    struct Failure: Error {}
    func hash(_ password: String) async throws -> String { throw Failure() }
    func verify(_ password: String, against hash: String) async throws -> Bool { throw Failure() }
    func decoyHash() async throws -> String { throw Failure() }
}
