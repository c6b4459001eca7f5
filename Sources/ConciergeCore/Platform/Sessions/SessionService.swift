import Foundation

/// Opens, checks, refreshes and ends sessions for every vertical. Every token names a row in the
/// one sessions table, so sign-out, refresh-token reuse and account deletion end it at once.
public struct SessionService: Sendable {
    /// How long tokens live, per kind. Defaults are the contracts': events one token for 7 days,
    /// stays 15-minute access tokens with 30-day refresh families.
    public struct Lifetimes: Sendable, Equatable {
        public var bearer = 7 * 24 * 3600
        public var access = 7 * 24 * 3600
        public var refreshableAccess = 15 * 60
        public var refreshFamily = 30 * 24 * 3600

        public init() {}
    }

    /// A request's resolved session.
    public struct Authenticated: Sendable, Equatable {
        public let session: AuthSession
        public var accountID: String { session.accountID }
    }

    private let store: any SessionStore
    private let signer: any SessionTokenSigner
    private let hasher: SecretHasher
    private let random: any RandomSource
    private let clock: any TimeSource
    public let lifetimes: Lifetimes

    public init(
        store: any SessionStore, signer: any SessionTokenSigner, hasher: SecretHasher, random: any RandomSource,
        clock: any TimeSource, lifetimes: Lifetimes = Lifetimes()
    ) {
        self.store = store
        self.signer = signer
        self.hasher = hasher
        self.random = random
        self.clock = clock
        self.lifetimes = lifetimes
    }

    // MARK: Opening

    /// `bearerLifetime` (seconds) replaces the bearer default for one session (an operator's
    /// 12 hours).
    public func open(_ kind: AuthSession.Kind, accountID: String, vertical: String, bearerLifetime: Int? = nil)
        async throws -> IssuedSession
    {
        let now = clock.now
        switch kind {
        case .bearer:
            let token = random.token(byteCount: 32)
            let hash = bearerHash(token)
            let session = AuthSession(
                id: "ses_" + hash, accountID: accountID, kind: .bearer, vertical: vertical, tokenHash: hash,
                createdAt: now, expiresAt: now.addingTimeInterval(Double(bearerLifetime ?? lifetimes.bearer)),
                revokedAt: nil)
            try await store.insert(session)
            return IssuedSession(
                session: session, accessToken: token, accessExpiresAt: session.expiresAt, refreshToken: nil)
        case .access:
            let session = newSession(.access, accountID: accountID, vertical: vertical, lifetime: lifetimes.access)
            try await store.insert(session)
            return try await issueAccess(for: session, lifetime: lifetimes.access, refreshToken: nil)
        case .refreshable:
            let session = newSession(
                .refreshable, accountID: accountID, vertical: vertical, lifetime: lifetimes.refreshFamily)
            try await store.insert(session)
            let refresh = random.token(byteCount: 32)
            try await store.insertRefreshToken(
                hash: refreshHash(refresh), sessionID: session.id, issuedAt: now, expiresAt: session.expiresAt)
            return try await issueAccess(for: session, lifetime: lifetimes.refreshableAccess, refreshToken: refresh)
        }
    }

    // MARK: Checking

    /// The vertical of operators' `/ops` sessions.
    public static let operatorVertical = "ops"

    /// The live customer session a bearer token names. An operator's `/ops` session is none: it
    /// names an operator's bare account and is good for `/ops` only, so a copied `concierge_ops`
    /// cookie sent as a bearer token (or as the session cookie) opens no customer API or page.
    public func authenticate(token: String?) async throws -> Authenticated {
        let found = try await liveSession(token: token)
        guard found.session.vertical != Self.operatorVertical else { throw ConciergeError.sessionExpired }
        return found
    }

    /// The live operator session (`vertical` `ops`) a token names, and no other.
    public func authenticateOperator(token: String?) async throws -> Authenticated {
        let found = try await liveSession(token: token)
        guard found.session.vertical == Self.operatorVertical else { throw ConciergeError.sessionExpired }
        return found
    }

    /// The live session a bearer token names: an opaque token by its keyed hash, a JWT by its
    /// signature and then its session row. Anything else is 401 `session_expired`.
    private func liveSession(token: String?) async throws -> Authenticated {
        guard let token, !token.isEmpty, token.count <= 2048 else { throw ConciergeError.sessionExpired }
        let now = clock.now
        let session: AuthSession?
        if token.split(separator: ".", omittingEmptySubsequences: false).count == 3 {
            guard let claims = await signer.verify(token), now < claims.expiresAt else {
                throw ConciergeError.sessionExpired
            }
            // The row, not the token, names the account: a session whose account was joined
            // into another follows it.
            session = try await store.session(id: claims.sessionID).flatMap { $0.kind != .bearer ? $0 : nil }
        } else {
            session = try await store.session(tokenHash: bearerHash(token))
        }
        guard let session, session.isLive(at: now) else { throw ConciergeError.sessionExpired }
        return Authenticated(session: session)
    }

    // MARK: Refreshing and ending

    /// Spends a refresh token for a new access and refresh token. A token spent before revokes
    /// its whole family, so the copy's holder and the rightful holder both sign in again.
    public func refresh(_ refreshToken: String) async throws -> IssuedSession {
        guard !refreshToken.isEmpty, refreshToken.count <= 512 else { throw ConciergeError.invalidRefreshToken }
        let now = clock.now
        let next = random.token(byteCount: 32)
        let outcome = try await store.rotateRefreshToken(
            hash: refreshHash(refreshToken), next: refreshHash(next), at: now,
            nextExpiresAt: now.addingTimeInterval(Double(lifetimes.refreshFamily)))
        switch outcome {
        case .rotated(let session):
            return try await issueAccess(for: session, lifetime: lifetimes.refreshableAccess, refreshToken: next)
        case .reused, .invalid:
            throw ConciergeError.invalidRefreshToken
        }
    }

    public func revoke(_ session: Authenticated) async throws {
        _ = try await store.revoke(id: session.session.id, at: clock.now)
    }

    /// Ends every session of the account at once (every vertical's, every device's); returns
    /// how many were live.
    @discardableResult
    public func revokeAll(accountID: String) async throws -> Int {
        try await store.revokeAll(accountID: accountID, at: clock.now)
    }

    // MARK: Helpers

    private func newSession(_ kind: AuthSession.Kind, accountID: String, vertical: String, lifetime: Int)
        -> AuthSession
    {
        let now = clock.now
        return AuthSession(
            id: random.identifier(prefix: "ses"), accountID: accountID, kind: kind, vertical: vertical,
            tokenHash: nil, createdAt: now, expiresAt: now.addingTimeInterval(Double(lifetime)), revokedAt: nil)
    }

    private func issueAccess(for session: AuthSession, lifetime: Int, refreshToken: String?) async throws
        -> IssuedSession
    {
        let now = clock.now
        let expiresAt = min(now.addingTimeInterval(Double(lifetime)), session.expiresAt)
        let token = try await signer.sign(
            SessionClaims(sessionID: session.id, accountID: session.accountID, issuedAt: now, expiresAt: expiresAt))
        return IssuedSession(
            session: session, accessToken: token, accessExpiresAt: expiresAt, refreshToken: refreshToken)
    }

    /// The same keyed hash rides' SMS sign-in stores, so a rides token is a bearer session here too.
    private func bearerHash(_ token: String) -> String { hasher.hash(token, purpose: "session") }
    private func refreshHash(_ token: String) -> String { hasher.hash(token, purpose: "refresh-token") }
}

extension ConciergeError {
    public static let invalidRefreshToken = ConciergeError(
        .unauthorized, code: "invalid_refresh_token",
        message: "This refresh token has expired, was used already or was signed out. Sign in again.")
}
