import ConciergeCore
import Testing

/// Sign-ins go before new passwords in the hashing gate (issue 26 item 3): a freed slot goes to
/// the first check in line, `slotsKeptForChecks` slots never go to a new password's hash, and
/// each kind has its own bounded line, so a flood of sign-ups neither delays a sign-in by more
/// than one hash nor turns it away. Deterministic: the hasher holds every hash until released.
@Suite struct HashingGatePrecedenceTests {
    @Test func aFreedSlotGoesToTheSignInBeforeSignUpsThatCameEarlier() async throws {
        let hasher = HeldHasher()
        let gate = HashingGate(hasher, slots: 1, queueLimit: 2)
        let first = Task { try await gate.hash("sign-up 1") }
        await hasher.waitUntilStarted(1)
        let second = Task { try await gate.hash("sign-up 2") }
        try await waitForLine(gate, .newPassword, waiting: 1)
        let third = Task { try await gate.hash("sign-up 3") }
        try await waitForLine(gate, .newPassword, waiting: 2)
        let signIn = Task { try await gate.verify("sign-in", against: "hashed:sign-in") }
        try await waitForLine(gate, .check, waiting: 1)

        hasher.release(1)
        #expect(try await first.value == "hashed:sign-up 1")
        await hasher.waitUntilStarted(2)
        #expect(hasher.startOrder == ["sign-up 1", "sign-in"])

        hasher.release(3)
        #expect(try await signIn.value)
        #expect(try await second.value == "hashed:sign-up 2")
        #expect(try await third.value == "hashed:sign-up 3")
        #expect(hasher.startOrder == ["sign-up 1", "sign-in", "sign-up 2", "sign-up 3"])
        #expect(hasher.mostAtOnce == 1)
        #expect(await gate.load == (running: 0, waiting: 0))
    }

    @Test func aSlotKeptForSignInsIsNeverGivenToASignUp() async throws {
        let hasher = HeldHasher()
        let gate = HashingGate(hasher, slots: 2, queueLimit: 1, slotsKeptForChecks: 1)
        let first = Task { try await gate.hash("sign-up 1") }
        await hasher.waitUntilStarted(1)
        // A slot is free, but it is the kept one: the second sign-up waits, the third is refused.
        let second = Task { try await gate.hash("sign-up 2") }
        try await waitForLine(gate, .newPassword, waiting: 1)
        #expect(await gate.load(of: .newPassword) == (running: 1, waiting: 1))
        let refused = await #expect(throws: ConciergeError.self) { try await gate.hash("sign-up 3") }
        #expect(refused?.code == "busy")
        #expect(hasher.started == 1)

        // The sign-in starts at once on the kept slot.
        let signIn = Task { try await gate.verify("sign-in", against: "hashed:sign-in") }
        await hasher.waitUntilStarted(2)
        #expect(hasher.startOrder == ["sign-up 1", "sign-in"])

        hasher.release(1)
        #expect(try await first.value == "hashed:sign-up 1")
        await hasher.waitUntilStarted(3)
        hasher.release(2)
        #expect(try await signIn.value)
        #expect(try await second.value == "hashed:sign-up 2")
        #expect(hasher.startOrder == ["sign-up 1", "sign-in", "sign-up 2"])
        #expect(await gate.load == (running: 0, waiting: 0))
    }

    @Test func aFullLineOfSignUpsDoesNotTurnASignInAway() async throws {
        let hasher = HeldHasher()
        let gate = HashingGate(hasher, slots: 1, queueLimit: 1)
        let first = Task { try await gate.hash("sign-up 1") }
        await hasher.waitUntilStarted(1)
        let second = Task { try await gate.hash("sign-up 2") }
        try await waitForLine(gate, .newPassword, waiting: 1)
        await #expect(throws: ConciergeError.self) { try await gate.hash("sign-up 3") }

        let signIn = Task { try await gate.verify("sign-in", against: "hashed:sign-in") }
        try await waitForLine(gate, .check, waiting: 1)
        // The line of checks is as bounded as the other.
        let refused = await #expect(throws: ConciergeError.self) { try await gate.decoyHash() }
        #expect(refused?.category == .unavailable(retryAfterSeconds: 1))

        hasher.release(3)
        _ = try await first.value
        #expect(try await signIn.value)
        _ = try await second.value
        #expect(hasher.startOrder == ["sign-up 1", "sign-in", "sign-up 2"])
    }

    @Test func signInsMayTakeEverySlotIncludingTheKeptOnes() async throws {
        let hasher = HeldHasher()
        let gate = HashingGate(hasher, slots: 2, queueLimit: 1, slotsKeptForChecks: 1)
        let one = Task { try await gate.verify("one", against: "hashed:one") }
        let two = Task { try await gate.decoyHash() }
        await hasher.waitUntilStarted(2)
        // Both slots are taken by checks: a sign-up waits until one is done.
        let signUp = Task { try await gate.hash("sign-up") }
        try await waitForLine(gate, .newPassword, waiting: 1)
        #expect(await gate.load(of: .check) == (running: 2, waiting: 0))

        hasher.release(3)
        #expect(try await one.value)
        #expect(try await two.value == "hashed:decoy")
        #expect(try await signUp.value == "hashed:sign-up")
        #expect(hasher.mostAtOnce == 2)
    }

    @Test func theKeptSlotsAlwaysLeaveOneForNewPasswords() async throws {
        #expect(HashingGate(HeldHasher(), slots: 1, queueLimit: 0, slotsKeptForChecks: 1).slotsKeptForChecks == 0)
        #expect(HashingGate(HeldHasher(), slots: 3, queueLimit: 0, slotsKeptForChecks: 5).slotsKeptForChecks == 2)

        let hasher = HeldHasher()
        let gate = HashingGate(hasher, slots: 1, queueLimit: 0, slotsKeptForChecks: 1)
        let signUp = Task { try await gate.hash("sign-up") }
        await hasher.waitUntilStarted(1)
        hasher.release(1)
        #expect(try await signUp.value == "hashed:sign-up")
    }
}

/// Yields until `work`'s line at the gate is `waiting` long (the gate is an actor, so
/// `waitUntil`'s synchronous condition cannot ask it).
private func waitForLine(_ gate: HashingGate, _ work: HashingGate.Work, waiting: Int) async throws {
    let deadline = ContinuousClock.now.advanced(by: .seconds(30))
    while await gate.load(of: work).waiting < waiting {
        guard ContinuousClock.now < deadline else {
            throw LineNeverFilled(work: work, waiting: waiting)
        }
        await Task.yield()
    }
}

private struct LineNeverFilled: Error {
    let work: HashingGate.Work
    let waiting: Int
}
