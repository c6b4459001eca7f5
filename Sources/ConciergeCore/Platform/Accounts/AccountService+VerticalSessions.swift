import Foundation

/// Password accounts for a vertical whose contract names its own session kind and email links
/// (events: one 7-day JWT per sign-in, links to `/events/verify-email?token=…&email=…`). The
/// account, its credentials, throttles and tokens are the platform's, as in `AccountService`.
extension AccountService {
    /// Where a vertical's account emails point. Each closure gets the plain token and the address.
    public struct MailLinks: Sendable {
        public let verifyEmail: @Sendable (_ token: String, _ email: String) -> String
        public let resetPassword: @Sendable (_ token: String, _ email: String) -> String

        public init(
            verifyEmail: @escaping @Sendable (String, String) -> String,
            resetPassword: @escaping @Sendable (String, String) -> String
        ) {
            self.verifyEmail = verifyEmail
            self.resetPassword = resetPassword
        }
    }

    /// Password sign-in (same throttles and one answer for both mistakes) opening a `kind` session.
    public func signIn(
        login: String, password: String, clientIP: String, vertical: String, kind: AuthSession.Kind
    ) async throws -> SignedIn {
        let accountID = try await checkPassword(login: login, password: password, clientIP: clientIP)
        return try await open(kind, accountID: accountID, vertical: vertical)
    }

    /// ID-token sign-in (linking as `signIn(provider:…)` does) opening a `kind` session instead of
    /// the platform's refreshable one, which is ended at once.
    public func signIn(
        provider: IdentityProvider, idToken: String, clientIP: String, vertical: String, kind: AuthSession.Kind
    ) async throws -> SignedIn {
        let platform = try await signIn(provider: provider, idToken: idToken, nonce: nil, clientIP: clientIP)
        try await sessions.revoke(SessionService.Authenticated(session: platform.session.session))
        return try await open(kind, accountID: platform.account.id, vertical: vertical)
    }

    /// Sends a new verification link when `email` is an unverified address of an account; answers
    /// the same either way, so the endpoint does not tell who has an account.
    public func resendVerification(email rawEmail: String, clientIP: String, links: MailLinks) async throws {
        let email = try LoginNormalization.email(rawEmail)
        let now = clock.now
        let limits = policy.mailLimits(email: email, clientIP: clientIP)
        let attemptID = random.identifier(prefix: "mail")
        let candidate = newToken(.verifyEmail, accountID: "", email: email, now: now)
        try await store.transaction(locking: limits.map(\.key).sorted()) { tx in
            try await RateLimitEnforcer(limits: limits).enforce(in: tx, now: now, attemptID: attemptID)
            guard let credential = try await tx.credential(kind: .email, identifier: email),
                credential.verifiedAt == nil
            else { return }
            try await send(candidate.forAccount(credential.accountID), links: links, in: tx)
        }
    }

    /// `forgotPassword` with the vertical's link.
    public func forgotPassword(email rawEmail: String, clientIP: String, links: MailLinks) async throws {
        let email = try LoginNormalization.email(rawEmail)
        let now = clock.now
        let limits = policy.mailLimits(email: email, clientIP: clientIP)
        let attemptID = random.identifier(prefix: "mail")
        let candidate = newToken(.resetPassword, accountID: "", email: email, now: now)
        try await store.transaction(locking: limits.map(\.key).sorted()) { tx in
            try await RateLimitEnforcer(limits: limits).enforce(in: tx, now: now, attemptID: attemptID)
            guard let credential = try await tx.credential(kind: .email, identifier: email) else { return }
            try await send(candidate.forAccount(credential.accountID), links: links, in: tx)
        }
    }

    private func open(_ kind: AuthSession.Kind, accountID: String, vertical: String) async throws -> SignedIn {
        let session = try await sessions.open(kind, accountID: accountID, vertical: vertical)
        return SignedIn(account: try await account(id: accountID), session: session)
    }

    func send(_ token: MailedToken, links: MailLinks, in tx: any AccountTransaction) async throws {
        try await tx.insertToken(token.stored)
        let email = token.stored.identifier
        let (subject, body) =
            switch token.stored.purpose {
            case .verifyEmail:
                (
                    "Confirm your email address",
                    """
                    Please confirm that \(email) is your email address:

                    \(links.verifyEmail(token.plain, email))

                    The link works once and for 24 hours. If you did not create an account, ignore this email.
                    """
                )
            case .resetPassword:
                (
                    "Reset your password",
                    """
                    Someone asked to reset the password of the account with \(email). To choose a new one, open:

                    \(links.resetPassword(token.plain, email))

                    The link works once and for one hour. If it was not you, ignore this email; your password stays as it is.
                    """
                )
            }
        try await tx.enqueueEmail(
            dedupeKey: "account:\(token.stored.purpose.rawValue):\(token.stored.tokenHash.prefix(32))", to: email,
            subject: subject, body: body, at: token.stored.createdAt)
    }
}
