/// Every password hash and check of every vertical passes here: at most `slots` run at once
/// (one per core by default), at most `queueLimit` more of each kind wait their turn, and
/// anything past that is answered at once with 503 and `Retry-After` instead of joining a queue
/// that would only time out (finding 3 of the 2026-11-27 review).
///
/// A bcrypt holds a thread for ~155 ms by design; unbounded, a flood of sign-ups from one client
/// filled NIO's blocking pool and every sign-in behind it waited seconds. The throttles per
/// network (`AccountPolicy.hashingLimits`) are checked before a request gets here; this bounds
/// what is left, on one instance.
///
/// Checks (sign-in, linking with a password, the decoy of an unknown login) go before new
/// password hashes (sign-up, register, reset): a person signing in is waiting for an answer that
/// needs one check, while a flood of sign-ups — even from many networks, each under its limit —
/// only brings more of the same. So a freed slot goes to the first check in line before any new
/// hash, and `slotsKeptForChecks` slots are never given to a new hash at all: under a flood of
/// new hashes a sign-in starts at once on a kept slot, or with none kept waits for at most one
/// hash to finish. Within a kind the line is served in arrival order, and each kind has its own
/// bounded line, so a full line of sign-ups never refuses a sign-in.
public actor HashingGate: PasswordHasher {
    /// What a hash is for; it decides the hash's place in line.
    public enum Work: Sendable {
        /// A password checked against a stored hash: someone is signing in.
        case check
        /// A new password hashed to be stored: sign-up, register, reset.
        case newPassword
    }

    private let hasher: any PasswordHasher
    public nonisolated let slots: Int
    /// Slots a new password's hash never takes; at most `slots - 1`, so new passwords get one.
    public nonisolated let slotsKeptForChecks: Int
    /// Hashes of each kind that may wait for a slot.
    public nonisolated let queueLimit: Int
    private var running: [Work: Int] = [:]
    private var waiting: [Work: [CheckedContinuation<Void, Never>]] = [:]

    /// - Parameters:
    ///   - slots: hashes that run at once; at least 1.
    ///   - queueLimit: hashes of each kind that may wait for a slot; 0 answers 503 whenever that
    ///     kind can take no slot.
    ///   - slotsKeptForChecks: slots only checks may hold (clamped to `0...slots - 1`).
    public init(_ hasher: any PasswordHasher, slots: Int, queueLimit: Int, slotsKeptForChecks: Int = 0) {
        self.hasher = hasher
        self.slots = max(1, slots)
        self.queueLimit = max(0, queueLimit)
        self.slotsKeptForChecks = min(max(0, slotsKeptForChecks), self.slots - 1)
    }

    public nonisolated func hash(_ password: String) async throws -> String {
        try await gated(.newPassword) { try await self.hasher.hash(password) }
    }

    public nonisolated func verify(_ password: String, against hash: String) async throws -> Bool {
        try await gated(.check) { try await self.hasher.verify(password, against: hash) }
    }

    /// A check's part: it answers an unknown login as slowly as a wrong password.
    public nonisolated func decoyHash() async throws -> String {
        try await gated(.check) { try await self.hasher.decoyHash() }
    }

    /// How many hashes run and wait right now (for tests and metrics).
    public var load: (running: Int, waiting: Int) {
        (running.values.reduce(0, +), waiting.values.reduce(0) { $0 + $1.count })
    }

    /// How many hashes of one kind run and wait right now.
    public func load(of work: Work) -> (running: Int, waiting: Int) {
        (running[work, default: 0], waiting[work, default: []].count)
    }

    private nonisolated func gated<T: Sendable>(_ work: Work, _ body: @Sendable () async throws -> T)
        async throws -> T
    {
        try await enter(work)
        do {
            let result = try await body()
            await leave(work)
            return result
        } catch {
            await leave(work)
            throw error
        }
    }

    /// Takes a slot, or waits for one in its kind's line, or refuses when that line is full. A
    /// waiting task is not cancelled: its slot is handed over by `leave` and its hash then runs
    /// (it is short).
    private func enter(_ work: Work) async throws {
        if waiting[work, default: []].isEmpty && mayStart(work) {
            running[work, default: 0] += 1
            return
        }
        guard waiting[work, default: []].count < queueLimit else { throw ConciergeError.hashingBusy }
        await withCheckedContinuation { waiting[work, default: []].append($0) }
    }

    /// Frees the slot and hands every slot that is free to the lines: checks first.
    private func leave(_ work: Work) {
        running[work, default: 0] -= 1
        let precedence: [Work] = [.check, .newPassword]
        while let next = precedence.first(where: { !waiting[$0, default: []].isEmpty && mayStart($0) }) {
            running[next, default: 0] += 1
            waiting[next, default: []].removeFirst().resume()
        }
    }

    /// Whether a hash of this kind may take a slot now, ahead of nobody: a new password's hash
    /// leaves the kept slots free and lets a waiting check go first.
    private func mayStart(_ work: Work) -> Bool {
        let total = running.values.reduce(0, +)
        guard total < slots else { return false }
        switch work {
        case .check:
            return true
        case .newPassword:
            return waiting[.check, default: []].isEmpty
                && running[.newPassword, default: 0] < slots - slotsKeptForChecks
        }
    }
}

extension ConciergeError {
    /// Every hashing slot is taken and the line is full: a second later a slot is usually free.
    public static let hashingBusy = ConciergeError(
        .unavailable(retryAfterSeconds: 1), code: "busy",
        message: "Many sign-ins are being checked right now. Try again in a moment.")
}
