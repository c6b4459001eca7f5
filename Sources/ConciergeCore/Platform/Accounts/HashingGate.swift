/// Every password hash and check of every vertical passes here: at most `slots` run at once
/// (one per core by default), at most `queueLimit` more wait their turn in arrival order, and
/// anything past that is answered at once with 503 and `Retry-After` instead of joining a queue
/// that would only time out (finding 3 of the 2026-11-27 review).
///
/// A bcrypt holds a thread for ~155 ms by design; unbounded, a flood of sign-ups from one client
/// filled NIO's blocking pool and every sign-in behind it waited seconds. The throttles per
/// network (`AccountPolicy.hashingLimits`) are checked before a request gets here; this bounds
/// what is left, on one instance.
public actor HashingGate: PasswordHasher {
    private let hasher: any PasswordHasher
    public nonisolated let slots: Int
    public nonisolated let queueLimit: Int
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// - Parameters:
    ///   - slots: hashes that run at once; at least 1.
    ///   - queueLimit: hashes that may wait for a slot; 0 answers 503 whenever every slot is busy.
    public init(_ hasher: any PasswordHasher, slots: Int, queueLimit: Int) {
        self.hasher = hasher
        self.slots = max(1, slots)
        self.queueLimit = max(0, queueLimit)
    }

    public nonisolated func hash(_ password: String) async throws -> String {
        try await gated { try await self.hasher.hash(password) }
    }

    public nonisolated func verify(_ password: String, against hash: String) async throws -> Bool {
        try await gated { try await self.hasher.verify(password, against: hash) }
    }

    public nonisolated func decoyHash() async throws -> String {
        try await gated { try await self.hasher.decoyHash() }
    }

    /// How many hashes run and wait right now (for tests and metrics).
    public var load: (running: Int, waiting: Int) { (running, waiting.count) }

    private nonisolated func gated<T: Sendable>(_ work: @Sendable () async throws -> T) async throws -> T {
        try await enter()
        do {
            let result = try await work()
            await leave()
            return result
        } catch {
            await leave()
            throw error
        }
    }

    /// Takes a slot, or waits for one in line, or refuses when the line is full. A waiting task
    /// is not cancelled: its slot is handed over by `leave` and its hash then runs (it is short).
    private func enter() async throws {
        if running < slots {
            running += 1
            return
        }
        guard waiting.count < queueLimit else { throw ConciergeError.hashingBusy }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Hands the slot to the first in line, or frees it.
    private func leave() {
        if waiting.isEmpty {
            running -= 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}

extension ConciergeError {
    /// Every hashing slot is taken and the line is full: a second later a slot is usually free.
    public static let hashingBusy = ConciergeError(
        .unavailable(retryAfterSeconds: 1), code: "busy",
        message: "Many sign-ins are being checked right now. Try again in a moment.")
}
