import Foundation

/// Named operators for `/ops` (review 2026-11-27, finding 10: one shared admin token could not
/// say who did what). An operator is added with a name and a password (`concierge ops
/// add-operator`, or `POST /admin/operators` with the admin token); the admin token signs in to
/// `/ops` only until the first operator exists.
public struct OperatorService: Sendable {
    let store: any OperatorStore
    let passwords: any PasswordHasher
    let random: any RandomSource
    let clock: any TimeSource
    let policy: AccountPolicy

    public init(
        store: any OperatorStore, passwords: any PasswordHasher, random: any RandomSource, clock: any TimeSource,
        policy: AccountPolicy = AccountPolicy()
    ) {
        self.store = store
        self.passwords = passwords
        self.random = random
        self.clock = clock
        self.policy = policy
    }

    // MARK: Adding

    /// Adds an operator; the name is what they type to sign in and what the audit log shows.
    /// `actor` (the admin token's API, the command line) is named in the audit log.
    public func add(name rawName: String, password: String, by actor: OperatorIdentity) async throws -> Operator {
        let name = try Self.validName(rawName)
        try PasswordPolicy.validate(password)
        guard try await store.operator(named: name) == nil else { throw Self.nameTaken }
        let hash = try await passwords.hash(password)
        let added = Operator(
            id: random.identifier(prefix: "opr"), name: name, accountID: random.identifier(prefix: "acc_operator"),
            createdAt: clock.now)
        try await perform(by: actor, "operators.add", subject: added.id, detail: name) {
            try await store.add(added, passwordHash: hash)
        }
        return added
    }

    /// 2 to 40 of `a-z 0-9 . _ -`, lower-cased: a handle typed at sign-in, not a person's full name.
    static func validName(_ raw: String) throws -> String {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let allowed = name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "." || $0 == "_" || $0 == "-"
        }
        guard (2...40).contains(name.count), allowed else {
            throw ConciergeError(
                .invalidInput, code: "invalid_operator_name",
                message: "An operator's name is 2 to 40 of a-z, 0-9, '.', '_' and '-', e.g. 'alice'.")
        }
        return name
    }

    public static let nameTaken = ConciergeError(
        .conflict, code: "operator_name_taken", message: "There is an operator of this name already.")

    // MARK: Signing in

    /// Whether the admin token still signs in: only until the first named operator exists.
    public func adminTokenSignsIn() async throws -> Bool {
        try await !store.hasOperators()
    }

    /// The operator whose name and password match: one answer (401 `invalid_credentials`) and one
    /// bcrypt check whether the name is unknown or the password wrong, throttled per name and per
    /// client network like the accounts' password sign-in.
    public func signIn(name rawName: String, password: String, clientIP: String) async throws -> Operator {
        let name = String(rawName.trimmingCharacters(in: .whitespacesAndNewlines).lowercased().prefix(40))
        let limits = Self.signInLimits(policy, name: name, clientIP: clientIP)
        let now = clock.now
        let attemptID = random.identifier(prefix: "signin")
        try await store.withRateEvents(locking: limits.map(\.key).sorted()) { log in
            try await RateLimitEnforcer(limits: limits).enforce(in: log, now: now, attemptID: attemptID)
        }
        let found = try await store.operator(named: name)
        let stored: String
        if let found { stored = found.passwordHash } else { stored = try await passwords.decoyHash() }
        let matches = try await passwords.verify(
            String(password.prefix(PasswordPolicy.maximumLength + 1)), against: stored)
        guard matches, let found else { throw ConciergeError.invalidCredentials }
        return found.0
    }

    /// The accounts' numbers (`CONCIERGE_SIGNIN_*` of the password sign-in) under keys of their own.
    static func signInLimits(_ policy: AccountPolicy, name: String, clientIP: String) -> [RateLimit] {
        [
            RateLimit(
                key: "ops-sign-in:name:\(name)", limit: policy.signInsPerAccount, window: policy.throttleWindow,
                message: "Too many sign-in attempts for this operator."),
            RateLimit(
                key: "ops-sign-in:net:\(ClientNetwork.key(for: clientIP))", limit: policy.signInsPerNetwork,
                window: policy.throttleWindow, message: "Too many sign-in attempts from your network."),
        ]
    }

    // MARK: The audit log

    /// The operator a session's account belongs to; the admin token's account has none.
    public func `operator`(accountID: String) async throws -> Operator? {
        try await store.operator(accountID: accountID)
    }

    /// Runs `body` as the operator's action, recorded in the audit log (see `OperatorAction`).
    public func perform<T: Sendable>(
        by actor: OperatorIdentity, _ action: String, subject: String, detail: String = "",
        unwritten: (T) -> String? = { _ in nil }, _ body: () async throws -> T
    ) async throws -> T {
        let entry = OperatorAuditEntry(
            at: clock.now, operatorAccountID: actor.accountID, operatorName: actor.name, action: action,
            subject: subject, detail: detail)
        return try await OperatorAction.perform(entry, store: store, unwritten: unwritten, body)
    }

    public func audit(limit: Int, offset: Int) async throws -> [OperatorAuditEntry] {
        try await store.audit(limit: limit, offset: offset)
    }
}

/// Who is signed in to `/ops`: a named operator, or the admin token before the first one.
public struct OperatorIdentity: Sendable, Equatable {
    public let accountID: String
    public let name: String

    public init(accountID: String, name: String) {
        self.accountID = accountID
        self.name = name
    }

    public static let adminToken = OperatorIdentity(
        accountID: Operator.adminTokenAccountID, name: Operator.adminTokenName)
    /// `concierge ops add-operator`, run on the server's host: no account signs in there.
    public static let commandLine = OperatorIdentity(accountID: "", name: "command line")
}
