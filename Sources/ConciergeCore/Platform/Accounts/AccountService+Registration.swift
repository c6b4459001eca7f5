import Foundation

/// Making an account with a password, so that the answer does not tell whether the address has
/// an account already (finding 11): the password is hashed either way, and a taken address gets
/// no new account but a notice to its owner ("someone tried to register with your address").
/// Every sign-up (the platform's, events', stays') answers "check your mail" and opens no
/// session: the client signs in next, as it would after any other sign-up.
/// The throttles per network and overall are passed before anything is hashed (finding 3).
extension AccountService {
    /// What a registration that opens no session did: the answer is "check your mail" either
    /// way, and a session would be a row nobody uses (the client signs in next).
    public enum NewAccount: Sendable, Equatable {
        case created(accountID: String)
        /// The address belongs to an account already; its owner was mailed, nothing was made.
        case emailAlreadyRegistered
    }

    /// Email and/or user name with a password, opening no session: the platform's sign-up (API
    /// and web) and any vertical that answers "check your mail". The verification email links to
    /// `links`, or to the platform's pages when nil. A taken user name is still 409
    /// `username_taken` (a user name is a public handle, not an address); a taken email is
    /// `.emailAlreadyRegistered`.
    public func registerWithoutSession(
        email rawEmail: String?, username rawUsername: String?, password: String, name rawName: String?,
        clientIP: String, links: MailLinks? = nil
    ) async throws -> NewAccount {
        let email = try rawEmail.map { raw throws(ConciergeError) in try LoginNormalization.email(raw) }
        let username = try rawUsername.map { raw throws(ConciergeError) in try LoginNormalization.username(raw) }
        guard email != nil || username != nil else { throw ConciergeError.missingLogin }
        let name = try rawName.map { raw throws(ConciergeError) in try ProfileRules.validName(raw) }
        try PasswordPolicy.validate(password)
        try await passHashingLimits(clientIP: clientIP)
        let secretHash = try await passwords.hash(password)
        let now = clock.now
        let accountID = random.identifier(prefix: "acc")
        let verification = email.map { newToken(.verifyEmail, accountID: accountID, email: $0, now: now) }
        let locks = [email.map { "account-login:email:\($0)" }, username.map { "account-login:username:\($0)" }]
            .compactMap { $0 }
        let created = try await store.transaction(locking: locks) { tx in
            if let username, try await tx.credential(kind: .username, identifier: username) != nil {
                throw ConciergeError.usernameTaken
            }
            if let email, try await tx.credential(kind: .email, identifier: email) != nil {
                try await noticeAttempt(to: email, in: tx, at: now)
                return false
            }
            try await tx.insertAccount(id: accountID, displayName: name, at: now)
            if let email {
                let credential = StoredCredential(
                    kind: .email, identifier: email, accountID: accountID, secretHash: secretHash, verifiedAt: nil,
                    createdAt: now)
                guard try await tx.insertCredential(credential) else { throw ConciergeError.emailTaken }
            }
            if let username {
                let credential = StoredCredential(
                    kind: .username, identifier: username, accountID: accountID, secretHash: secretHash,
                    verifiedAt: now, createdAt: now)
                guard try await tx.insertCredential(credential) else { throw ConciergeError.usernameTaken }
            }
            if let verification {
                if let links {
                    try await send(verification, links: links, in: tx)
                } else {
                    try await send(verification, in: tx)
                }
            }
            return true
        }
        return created ? .created(accountID: accountID) : .emailAlreadyRegistered
    }

    /// The per-network and overall limits on requests that hash a password, checked and counted
    /// in a transaction of their own before the hash (so a refused request costs no bcrypt).
    /// Without an address only the overall limit counts. A limit refused here stays refused in
    /// memory until its slot frees (`RefusedLimits`), so a flood's 429s cost no transaction.
    func passHashingLimits(clientIP: String?) async throws {
        let limits = policy.hashingLimits(clientIP: clientIP)
        let now = clock.now
        if let refusal = refusedHashing.refusal(keys: limits.map(\.key), at: now) { throw refusal }
        let attemptID = random.identifier(prefix: "hash")
        let enforcer = RateLimitEnforcer(limits: limits, refused: refusedHashing)
        try await store.transaction(locking: limits.map(\.key).sorted()) { tx in
            try await enforcer.enforce(in: tx, now: now, attemptID: attemptID)
        }
    }

    /// Tells the owner of `email` that someone tried to register with it. At most a few such
    /// notices per address and hour (the mail limit per address); past it the attempt is
    /// answered the same and nothing is sent, since a 429 here would tell the address is taken.
    private func noticeAttempt(to email: String, in tx: any AccountTransaction, at now: Date) async throws {
        let perAddress = policy.mailLimits(email: email, clientIP: "").filter { $0.key.hasPrefix("account-mail:to:") }
        do {
            try await RateLimitEnforcer(limits: perAddress).enforce(
                in: tx, now: now, attemptID: random.identifier(prefix: "mail"))
        } catch let error as ConciergeError where error.code == "rate_limited" {
            return
        }
        let message = AccountMessages.registrationAttempt(email: email, publicURL: policy.publicURL)
        try await tx.enqueueEmail(
            dedupeKey: "account:registration-attempt:\(random.identifier(prefix: "notice"))", to: email,
            subject: message.subject, body: message.body, at: now)
    }
}
