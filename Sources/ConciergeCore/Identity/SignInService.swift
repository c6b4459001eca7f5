public import Foundation

/// SMS-code sign-in: send a code, verify it, hold sessions. The rules live here; the store only
/// makes each step atomic.
public struct SignInService: Sendable {
    public struct CodeSent: Sendable, Equatable {
        public let expiresInSeconds: Int
        public let resendAfterSeconds: Int
    }

    public struct SignedIn: Sendable {
        public let customer: Customer
        /// The bearer token; only its hash is stored, so this is the one time it exists in full.
        public let sessionToken: String
        public let expiresAt: Date
    }

    /// A request's resolved session.
    public struct Authenticated: Sendable {
        public let customer: Customer
        public let tokenHash: String
    }

    private let store: any IdentityStore
    private let codes: CodeAuthority
    private let hasher: SecretHasher
    private let policy: SignInPolicy
    private let clock: any TimeSource
    private let random: any RandomSource

    public init(
        store: any IdentityStore, codes: CodeAuthority, hasher: SecretHasher, policy: SignInPolicy,
        clock: any TimeSource, random: any RandomSource = SystemRandomSource()
    ) {
        self.store = store
        self.codes = codes
        self.hasher = hasher
        self.policy = policy
        self.clock = clock
        self.random = random
    }

    // MARK: Sending a code

    public func sendCode(to rawPhone: String, clientIP: String) async throws -> CodeSent {
        let phone = try PhoneNumber(normalizing: rawPhone)
        guard policy.sendsCodes(to: phone) else { throw ConciergeError.smsRegionNotServed(policy.smsRegionNames) }
        let now = clock.now
        let attemptID = random.identifier(prefix: "send")
        var code: String?
        if case .local = codes { code = random.digits(policy.codeLength) }
        let challenge = CodeChallenge(
            id: random.identifier(prefix: "chl"), phone: phone,
            codeHash: code.map { codeHash($0, phone: phone) },
            sentAt: now, expiresAt: now.addingTimeInterval(Double(policy.codeLifetime)), wrongGuesses: 0)
        let limits = policy.sendLimits(phone: phone, ip: clientIP)

        try await store.transaction(locking: Self.lockKeys(limits, phone: phone)) { tx in
            if let previous = try await tx.challenge(phone: phone) {
                let wait = Int(
                    ceil(previous.sentAt.addingTimeInterval(Double(policy.resendInterval)).timeIntervalSince(now)))
                if wait > 0 { throw ConciergeError.resendTooSoon(retryAfter: wait) }
            }
            try await RateLimitEnforcer(limits: limits).enforce(in: tx, now: now, attemptID: attemptID)
            try await tx.replaceChallenge(challenge)
        }

        do {
            switch codes {
            case .local(let sender):
                try await sender.sendSMS(
                    to: phone, body: Self.smsBody(code: code ?? "", minutes: policy.codeLifetime / 60))
            case .remote(let verification):
                try await verification.startVerification(to: phone)
            }
        } catch {
            // The failure is ours or the network's: give back the phone's allowance and cooldown.
            // The IP's event stays, so failing numbers cannot be used to probe without limit.
            let phoneKeys = limits.map(\.key).filter { $0.contains(":phone:") }
            try? await store.transaction(locking: Self.lockKeys(limits, phone: phone)) { tx in
                try await tx.deleteRateEvents(attemptID: attemptID, keys: phoneKeys)
                _ = try await tx.deleteChallenge(phone: phone, challengeID: challenge.id)
            }
            throw error
        }
        return CodeSent(expiresInSeconds: policy.codeLifetime, resendAfterSeconds: policy.resendInterval)
    }

    /// The SMS text. The code stands alone as six digits so phones can offer to autofill it.
    static func smsBody(code: String, minutes: Int) -> String {
        "Your Concierge code is \(code). It expires in \(minutes) minutes. Never share it."
    }

    // MARK: Verifying a code

    public func verifyCode(phone rawPhone: String, code rawCode: String, clientIP: String) async throws -> SignedIn {
        let (phone, challengeID) = try await checkCode(phone: rawPhone, code: rawCode, clientIP: clientIP)
        return try await signIn(phone: phone, challengeID: challengeID, now: clock.now)
    }

    /// Proof that the caller holds `phone` (linking it to an account): the code is checked under
    /// the same limits as a sign-in and then spent, but no session or profile is made.
    public func proveCode(phone rawPhone: String, code rawCode: String, clientIP: String) async throws -> PhoneNumber {
        let (phone, challengeID) = try await checkCode(phone: rawPhone, code: rawCode, clientIP: clientIP)
        try await store.transaction(locking: [Self.phoneLock(phone)]) { tx in
            guard try await tx.deleteChallenge(phone: phone, challengeID: challengeID) else {
                throw ConciergeError.codeExpired
            }
        }
        return phone
    }

    /// Checks a code without spending it; returns the phone and the challenge it matched.
    private func checkCode(phone rawPhone: String, code rawCode: String, clientIP: String) async throws -> (
        PhoneNumber, String
    ) {
        let phone = try PhoneNumber(normalizing: rawPhone)
        let code = rawCode.filter { !$0.isWhitespace }
        guard code.count == policy.codeLength, code.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw ConciergeError.invalidCodeFormat(length: policy.codeLength)
        }
        let now = clock.now
        let limits = policy.verifyLimits(ip: clientIP)
        let maxGuesses = policy.maxWrongGuesses

        // Reserve a guess first: concurrent guesses can never exceed the allowance, even when
        // the check itself happens at a provider.
        // Refusals are returned, not thrown, so the transaction commits the attempt's rate event:
        // a guess against a missing or expired code still counts against the network's limit.
        let reservation: Result<(CodeChallenge, Int), ConciergeError> = try await store.transaction(
            locking: Self.lockKeys(limits, phone: phone)
        ) { tx in
            try await RateLimitEnforcer(limits: limits)
                .enforce(in: tx, now: now, attemptID: random.identifier(prefix: "verify"))
            // No pending code is answered like a wrong one, so a probe cannot tell whether this
            // number is signing in right now (security review finding 19).
            guard let challenge = try await tx.challenge(phone: phone) else { return .failure(.wrongCode) }
            if challenge.wrongGuesses >= maxGuesses { return .failure(.tooManyAttempts) }
            if now >= challenge.expiresAt { return .failure(.codeExpired) }
            guard
                let guesses = try await tx.reserveGuess(phone: phone, challengeID: challenge.id, maxGuesses: maxGuesses)
            else { return .failure(.tooManyAttempts) }
            return .success((challenge, guesses))
        }
        let (challenge, guesses) = try reservation.get()

        let correct: Bool
        switch codes {
        case .local:
            correct = SecretHasher.constantTimeEquals(codeHash(code, phone: phone), challenge.codeHash ?? "")
        case .remote(let verification):
            do {
                correct = try await verification.checkVerification(phone: phone, code: code)
            } catch {
                try? await store.transaction(locking: [Self.phoneLock(phone)]) { tx in
                    try await tx.releaseGuess(phone: phone, challengeID: challenge.id)
                }
                throw error
            }
        }
        guard correct else {
            throw guesses >= maxGuesses ? ConciergeError.tooManyAttempts : .wrongCode
        }
        return (phone, challenge.id)
    }

    private func signIn(phone: PhoneNumber, challengeID: String, now: Date) async throws -> SignedIn {
        let token = random.token(byteCount: 32)
        let session = StoredSession(
            tokenHash: tokenHash(token), customerID: "", createdAt: now,
            expiresAt: now.addingTimeInterval(Double(policy.sessionLifetime)), revokedAt: nil)
        let customer = try await store.transaction(locking: [Self.phoneLock(phone)]) { tx in
            // A code is good for one sign-in: whoever deletes the challenge wins.
            guard try await tx.deleteChallenge(phone: phone, challengeID: challengeID) else {
                throw ConciergeError.codeExpired
            }
            let customer: Customer
            if let existing = try await tx.customer(phone: phone) {
                customer = existing
            } else {
                // The rides profile's id is the account's: a phone linked to an account before
                // gets its profile there, a new phone gets a new account.
                let accountID = try await tx.accountID(phone: phone) ?? random.identifier(prefix: "cus")
                customer = Customer(id: accountID, phone: phone, name: nil, email: nil, createdAt: now)
                try await tx.insertCustomer(customer)
            }
            try await tx.insertSession(
                StoredSession(
                    tokenHash: session.tokenHash, customerID: customer.id, createdAt: now,
                    expiresAt: session.expiresAt, revokedAt: nil))
            return customer
        }
        return SignedIn(customer: customer, sessionToken: token, expiresAt: session.expiresAt)
    }

    // MARK: Sessions

    /// The signed-in customer for a bearer token; `session_expired` for a missing, unknown,
    /// expired or revoked one.
    public func authenticate(token: String?) async throws -> Authenticated {
        guard let token, !token.isEmpty, token.count <= 512 else { throw ConciergeError.sessionExpired }
        let hash = tokenHash(token)
        guard let (session, customer) = try await store.session(tokenHash: hash),
            session.revokedAt == nil, clock.now < session.expiresAt
        else { throw ConciergeError.sessionExpired }
        return Authenticated(customer: customer, tokenHash: hash)
    }

    public func logout(_ session: Authenticated) async throws {
        _ = try await store.revokeSession(tokenHash: session.tokenHash, at: clock.now)
    }

    // MARK: Keys and hashes

    private func codeHash(_ code: String, phone: PhoneNumber) -> String {
        hasher.hash("\(phone.e164):\(code)", purpose: "sms-code")
    }

    private func tokenHash(_ token: String) -> String {
        hasher.hash(token, purpose: "session")
    }

    static func phoneLock(_ phone: PhoneNumber) -> String { "phone:\(phone.e164)" }

    static func lockKeys(_ limits: [RateLimit], phone: PhoneNumber) -> [String] {
        Array(Set(limits.map(\.key) + [phoneLock(phone)])).sorted()
    }
}
