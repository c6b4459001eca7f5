import Foundation

/// Accounts with several sign-in methods: password sign-up and sign-in, ID-token sign-in with
/// linking by provider-verified email. Email flows are in `AccountService+Email`, explicit
/// linking and deletion in `AccountService+Linking`.
public struct AccountService: Sendable {
    public struct SignedIn: Sendable {
        public let account: AccountOverview
        public let session: IssuedSession
    }

    let store: any AccountStore
    let sessions: SessionService
    let passwords: any PasswordHasher
    let idTokens: any IDTokenVerifier
    /// Checks and spends an SMS code as proof of a phone (rides' SignInService).
    let phoneProof: @Sendable (_ phone: String, _ code: String, _ clientIP: String) async throws -> PhoneNumber
    let hasher: SecretHasher
    let random: any RandomSource
    let clock: any TimeSource
    let policy: AccountPolicy
    /// The sign-up limits this instance saw refused (see `passHashingLimits`).
    let refusedHashing: RefusedLimits

    public init(
        store: any AccountStore, sessions: SessionService, passwords: any PasswordHasher,
        idTokens: any IDTokenVerifier,
        phoneProof:
            @escaping @Sendable (_ phone: String, _ code: String, _ clientIP: String) async throws
            -> PhoneNumber,
        hasher: SecretHasher, random: any RandomSource, clock: any TimeSource, policy: AccountPolicy,
        refusedHashing: RefusedLimits = RefusedLimits()
    ) {
        self.refusedHashing = refusedHashing
        self.store = store
        self.sessions = sessions
        self.passwords = passwords
        self.idTokens = idTokens
        self.phoneProof = phoneProof
        self.hasher = hasher
        self.random = random
        self.clock = clock
        self.policy = policy
    }

    /// Platform sign-ins open a refreshable session (short access tokens, rotating refresh tokens).
    static let vertical = "account"

    // MARK: Password

    /// One answer (401 `invalid_credentials`) and one cost (a bcrypt check) whether the login is
    /// unknown or the password wrong; throttled per login and per client network.
    public func signIn(login: String, password: String, clientIP: String) async throws -> SignedIn {
        let accountID = try await checkPassword(login: login, password: password, clientIP: clientIP)
        return try await signedIn(accountID: accountID)
    }

    /// The account whose email or user name and password match, counted by the throttles.
    func checkPassword(login rawLogin: String, password: String, clientIP: String) async throws -> String {
        let parsed = LoginNormalization.login(rawLogin)
        let throttleKey = parsed?.1 ?? String(rawLogin.lowercased().prefix(254))
        let limits = policy.signInLimits(login: throttleKey, clientIP: clientIP)
        let now = clock.now
        let attemptID = random.identifier(prefix: "signin")
        let credential = try await store.transaction(locking: limits.map(\.key).sorted()) { tx in
            try await RateLimitEnforcer(limits: limits).enforce(in: tx, now: now, attemptID: attemptID)
            guard let (kind, identifier) = parsed else { return StoredCredential?.none }
            return try await tx.credential(kind: kind, identifier: identifier)
        }
        let stored: String
        if let hash = credential?.secretHash { stored = hash } else { stored = try await passwords.decoyHash() }
        let matches = try await passwords.verify(
            String(password.prefix(PasswordPolicy.maximumLength + 1)), against: stored)
        guard matches, let credential, credential.secretHash != nil else { throw ConciergeError.invalidCredentials }
        return credential.accountID
    }

    // MARK: ID tokens

    /// Signs in with a provider's ID token. The token's (issuer, subject) finds the account; the
    /// first time, a provider-verified email joins the account that has that verified email,
    /// otherwise a new account is made.
    public func signIn(provider: IdentityProvider, idToken: String, nonce: String?, clientIP: String) async throws
        -> SignedIn
    {
        let identity = try await idTokens.verify(idToken, provider: provider, nonce: nonce)
        let now = clock.now
        let newAccountID = random.identifier(prefix: "acc")
        let email = identity.emailVerified ? identity.email.flatMap { try? LoginNormalization.email($0) } : nil
        let locks =
            ["account-login:oidc:\(identity.credentialIdentifier)"]
            + (email.map { ["account-login:email:\($0)"] } ?? [])
        let networkLimit = policy.signInLimits(login: identity.credentialIdentifier, clientIP: clientIP).filter {
            $0.key.hasPrefix("account-sign-in:net:")
        }
        let attemptID = random.identifier(prefix: "signin")
        let accountID = try await store.transaction(locking: (locks + networkLimit.map(\.key)).sorted()) { tx in
            try await RateLimitEnforcer(limits: networkLimit).enforce(in: tx, now: now, attemptID: attemptID)
            if let existing = try await tx.credential(kind: .oidc, identifier: identity.credentialIdentifier) {
                return existing.accountID
            }
            var accountID = newAccountID
            if let email, let owner = try await tx.credential(kind: .email, identifier: email), owner.verifiedAt != nil
            {
                accountID = owner.accountID
            } else {
                try await tx.insertAccount(id: newAccountID, displayName: identity.name, at: now)
                if let email {
                    // A free address becomes a verified email of the new account; one held
                    // unverified by another account stays theirs until someone proves it.
                    _ = try await tx.insertCredential(
                        StoredCredential(
                            kind: .email, identifier: email, accountID: newAccountID, secretHash: nil,
                            verifiedAt: now, createdAt: now))
                }
            }
            _ = try await tx.insertCredential(
                StoredCredential(
                    kind: .oidc, identifier: identity.credentialIdentifier, accountID: accountID, secretHash: nil,
                    verifiedAt: now, createdAt: now))
            return accountID
        }
        return try await signedIn(accountID: accountID)
    }

    // MARK: Reading

    public func account(id: String) async throws -> AccountOverview {
        guard let account = try await store.account(id: id) else { throw ConciergeError.sessionExpired }
        return account
    }

    func signedIn(accountID: String) async throws -> SignedIn {
        let session = try await sessions.open(.refreshable, accountID: accountID, vertical: Self.vertical)
        return SignedIn(account: try await account(id: accountID), session: session)
    }
}
