import Foundation

/// Email verification (24 h) and password reset (1 h): random single-use tokens, stored as
/// keyed hashes, mailed through the outbox in the transaction that creates them.
extension AccountService {
    /// Marks the address the token was sent to as verified. When this is the first proof of the
    /// account's mailbox and the request does not come from a session of that very account, the
    /// one who opened the link may not be the one who signed up (someone can register another
    /// person's address): every other sign-in method, the password and every session made before
    /// go, and the address is told (`MailboxProof`).
    public func verifyEmail(token: String, sessionAccountID: String?) async throws {
        let now = clock.now
        let hash = tokenHash(token)
        let publicURL = policy.publicURL
        try await store.transaction(locking: []) { tx in
            guard let spent = try await tx.spendToken(hash: hash, purpose: .verifyEmail, at: now) else {
                throw ConciergeError.invalidAccountToken
            }
            let proof = try await MailboxProof.before(spent, in: tx)
            guard
                try await tx.markVerified(
                    kind: .email, identifier: spent.identifier, accountID: spent.accountID, at: now)
            else { throw ConciergeError.invalidAccountToken }
            if sessionAccountID != spent.accountID {
                try await proof.dropUnproven(in: tx, at: now, publicURL: publicURL)
            }
        }
    }

    /// Sends a new verification link to each unverified email of the account.
    public func resendVerification(accountID: String, clientIP: String) async throws {
        let now = clock.now
        let pending = try await account(id: accountID).methods.filter { $0.kind == .email && !$0.verified }
        for method in pending {
            let limits = policy.mailLimits(email: method.identifier, clientIP: clientIP)
            let token = newToken(.verifyEmail, accountID: accountID, email: method.identifier, now: now)
            let attemptID = random.identifier(prefix: "mail")
            try await store.transaction(locking: limits.map(\.key).sorted()) { tx in
                try await RateLimitEnforcer(limits: limits).enforce(in: tx, now: now, attemptID: attemptID)
                try await send(token, in: tx)
            }
        }
    }

    /// Mails a reset link when the address belongs to an account; answers the same either way,
    /// so the endpoint does not tell who has an account.
    public func forgotPassword(email rawEmail: String, clientIP: String) async throws {
        let email = try LoginNormalization.email(rawEmail)
        let now = clock.now
        let limits = policy.mailLimits(email: email, clientIP: clientIP)
        let attemptID = random.identifier(prefix: "mail")
        let candidate = newToken(.resetPassword, accountID: "", email: email, now: now)
        try await store.transaction(locking: limits.map(\.key).sorted()) { tx in
            try await RateLimitEnforcer(limits: limits).enforce(in: tx, now: now, attemptID: attemptID)
            guard let credential = try await tx.credential(kind: .email, identifier: email) else { return }
            try await send(candidate.forAccount(credential.accountID), in: tx)
        }
    }

    /// Sets a new password with a reset token. The token proves the mailbox, so the address
    /// counts as verified; every session of the account ends (whoever knew the old password is
    /// out). When the mailbox was never proven before, every other sign-in method goes too
    /// (`MailboxProof`). The throttles and the token are checked before the new password is
    /// hashed, so a made-up token costs no bcrypt; without `clientIP` only the overall limit counts.
    public func resetPassword(token: String, password: String, clientIP: String? = nil) async throws {
        try PasswordPolicy.validate(password)
        let hash = tokenHash(token)
        try await passHashingLimits(clientIP: clientIP)
        let known = try await store.transaction(locking: []) { tx in
            try await tx.unspentToken(hash: hash, purpose: .resetPassword, at: clock.now) != nil
        }
        guard known else { throw ConciergeError.invalidAccountToken }
        let secretHash = try await passwords.hash(password)
        let now = clock.now
        let publicURL = policy.publicURL
        try await store.transaction(locking: []) { tx in
            guard let spent = try await tx.spendToken(hash: hash, purpose: .resetPassword, at: now) else {
                throw ConciergeError.invalidAccountToken
            }
            let proof = try await MailboxProof.before(spent, in: tx)
            try await proof.dropUnproven(in: tx, at: now, publicURL: publicURL, replacingPassword: true)
            try await tx.setPassword(accountID: spent.accountID, hash: secretHash)
            _ = try await tx.markVerified(
                kind: .email, identifier: spent.identifier, accountID: spent.accountID, at: now)
            try await tx.revokeSessions(accountID: spent.accountID, at: now)
        }
    }

    // MARK: Tokens and mail

    /// A token with its plain value, which exists only until it is mailed.
    struct MailedToken: Sendable {
        let plain: String
        let stored: AccountToken

        func forAccount(_ accountID: String) -> MailedToken {
            MailedToken(
                plain: plain,
                stored: AccountToken(
                    tokenHash: stored.tokenHash, accountID: accountID, purpose: stored.purpose,
                    identifier: stored.identifier, createdAt: stored.createdAt, expiresAt: stored.expiresAt))
        }
    }

    func newToken(_ purpose: AccountToken.Purpose, accountID: String, email: String, now: Date) -> MailedToken {
        let plain = random.token(byteCount: 32)
        let lifetime = purpose == .verifyEmail ? policy.emailVerificationLifetime : policy.passwordResetLifetime
        return MailedToken(
            plain: plain,
            stored: AccountToken(
                tokenHash: tokenHash(plain), accountID: accountID, purpose: purpose, identifier: email,
                createdAt: now, expiresAt: now.addingTimeInterval(Double(lifetime))))
    }

    func send(_ token: MailedToken, in tx: any AccountTransaction) async throws {
        try await tx.insertToken(token.stored)
        let message = AccountMessages.message(for: token.stored, plainToken: token.plain, publicURL: policy.publicURL)
        try await tx.enqueueEmail(
            dedupeKey: "account:\(token.stored.purpose.rawValue):\(token.stored.tokenHash.prefix(32))",
            to: token.stored.identifier, subject: message.subject, body: message.body, at: token.stored.createdAt)
    }

    func tokenHash(_ token: String) -> String { hasher.hash(token, purpose: "account-token") }
}
