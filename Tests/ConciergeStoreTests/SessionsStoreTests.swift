import ConciergeCore
import ConciergeStore
import ConciergeTestSupport
import Foundation
import Testing

/// The one sessions table and its refresh-token families, on both engines.
@Suite struct SessionsStoreTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    func prepare(_ engine: TestEngine) async throws -> (any SQLDatabase, SQLSessionStore) {
        let database = try await engine.makeDatabase()
        try await SQLAccountStore(database: database).transaction(locking: []) { tx in
            try await tx.insertAccount(id: "acc_a", displayName: nil, at: Self.now)
        }
        let store = SQLSessionStore(database: database)
        try await store.insert(AccountsStoreTests.session("ses_a", account: "acc_a"))
        try await store.insertRefreshToken(
            hash: "r1", sessionID: "ses_a", issuedAt: Self.now, expiresAt: Self.now.addingTimeInterval(3600))
        return (database, store)
    }

    @Test(arguments: TestEngine.all)
    func aRefreshTokenRotatesOnceAndItsReuseEndsTheFamily(engine: TestEngine) async throws {
        let (database, store) = try await prepare(engine)
        let later = Self.now.addingTimeInterval(60)
        let first = try await store.rotateRefreshToken(hash: "r1", next: "r2", at: later, nextExpiresAt: later + 3600)
        guard case .rotated(let session) = first else { Issue.record("expected a rotation, got \(first)"); return }
        #expect(session.id == "ses_a")
        let second = try await store.rotateRefreshToken(hash: "r2", next: "r3", at: later, nextExpiresAt: later + 3600)
        #expect(second == .rotated(session))

        // r1 again: someone holds a copy. The family ends, and r3 (the newest) with it.
        #expect(try await store.rotateRefreshToken(hash: "r1", next: "r4", at: later, nextExpiresAt: later) == .reused)
        #expect(try await store.session(id: "ses_a")?.revokedAt != nil)
        #expect(try await store.rotateRefreshToken(hash: "r3", next: "r5", at: later, nextExpiresAt: later) == .invalid)
        #expect(
            try await store.rotateRefreshToken(hash: "unknown", next: "r6", at: later, nextExpiresAt: later) == .invalid
        )
        try await database.close()
    }

    @Test(arguments: TestEngine.all)
    func twoRefreshesWithOneTokenAtOnceNeverBothWin(engine: TestEngine) async throws {
        let (database, store) = try await prepare(engine)
        let outcomes = try await withThrowingTaskGroup(of: RefreshOutcome.self) { group in
            for index in 0..<2 {
                group.addTask {
                    try await store.rotateRefreshToken(
                        hash: "r1", next: "next-\(index)", at: Self.now, nextExpiresAt: Self.now + 3600)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.filter { if case .rotated = $0 { true } else { false } }.count == 1)
        #expect(outcomes.contains(.reused))
        #expect(try await store.session(id: "ses_a")?.revokedAt != nil)
        try await database.close()
    }

    @Test(arguments: TestEngine.all)
    func sweepingForgetsEndedSessionsWithTheirRefreshTokensAndKeepsLiveOnes(engine: TestEngine) async throws {
        let (database, store) = try await prepare(engine)
        let live = AuthSession(
            id: "ses_live", accountID: "acc_a", kind: .bearer, vertical: "rides", tokenHash: "live-hash",
            createdAt: Self.now, expiresAt: Self.now.addingTimeInterval(7 * 86_400), revokedAt: nil)
        try await store.insert(live)
        // ses_a ended an hour after now: a sweep before then keeps it, one after forgets it.
        #expect(try await store.sweep(endedBefore: Self.now) == 0)
        #expect(try await store.sweep(endedBefore: Self.now.addingTimeInterval(7200)) == 1)
        #expect(try await store.session(id: "ses_a") == nil)
        #expect(try await database.query("SELECT token_hash FROM refresh_tokens").isEmpty)
        #expect(try await store.session(tokenHash: "live-hash") == live)
        try await database.close()
    }

    @Test(arguments: TestEngine.all)
    func anExpiredTokenOrSessionDoesNotRotate(engine: TestEngine) async throws {
        let (database, store) = try await prepare(engine)
        let afterExpiry = Self.now.addingTimeInterval(3600)
        #expect(
            try await store.rotateRefreshToken(hash: "r1", next: "r2", at: afterExpiry, nextExpiresAt: afterExpiry)
                == .invalid)
        #expect(try await store.session(id: "ses_a")?.revokedAt == nil)
        try await database.close()
    }

    @Test(arguments: TestEngine.all)
    func revokingEndsASessionOnce(engine: TestEngine) async throws {
        let (database, store) = try await prepare(engine)
        #expect(try await store.revoke(id: "ses_a", at: Self.now))
        #expect(try await store.revoke(id: "ses_a", at: Self.now) == false)
        #expect(try await store.session(id: "ses_a")?.isLive(at: Self.now) == false)
        #expect(
            try await store.rotateRefreshToken(hash: "r1", next: "r2", at: Self.now, nextExpiresAt: Self.now)
                == .invalid)
        try await database.close()
    }
}

/// `SessionService` over the SQL store: each kind of session, judged by its row.
@Suite struct SessionsServiceTests {
    /// Signs claims with the secret hasher, so these tests need no JWT library; the real signer
    /// (jwt-kit HS256) is exercised by the HTTP suites.
    struct HashSigner: SessionTokenSigner {
        let hasher = SecretHasher(secret: "signer-secret")

        func sign(_ claims: SessionClaims) async throws -> String {
            let body = "\(claims.sessionID)~\(claims.accountID)~\(Int(claims.expiresAt.timeIntervalSince1970))"
            return "h.\(body).\(hasher.hash(body, purpose: "test-jwt"))"
        }

        func verify(_ token: String) async -> SessionClaims? {
            let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 3,
                SecretHasher.constantTimeEquals(hasher.hash(parts[1], purpose: "test-jwt"), parts[2])
            else { return nil }
            let fields = parts[1].split(separator: "~").map(String.init)
            guard fields.count == 3, let expiry = Double(fields[2]) else { return nil }
            return SessionClaims(
                sessionID: fields[0], accountID: fields[1], issuedAt: .distantPast,
                expiresAt: Date(timeIntervalSince1970: expiry))
        }
    }

    @Test(arguments: TestEngine.all)
    func everyKindOfSessionIsOneRowThatRevocationEnds(engine: TestEngine) async throws {
        let database = try await engine.makeDatabase()
        try await SQLAccountStore(database: database).transaction(locking: []) { tx in
            try await tx.insertAccount(id: "acc_a", displayName: nil, at: SessionsStoreTests.now)
        }
        let clock = ManualTimeSource(SessionsStoreTests.now)
        let service = SessionService(
            store: SQLSessionStore(database: database), signer: HashSigner(), hasher: SecretHasher(secret: "s"),
            random: SeededRandomSource(seed: 7), clock: clock)

        let bearer = try await service.open(.bearer, accountID: "acc_a", vertical: "rides")
        let events = try await service.open(.access, accountID: "acc_a", vertical: "events")
        let stays = try await service.open(.refreshable, accountID: "acc_a", vertical: "stays")
        #expect(bearer.refreshToken == nil && events.refreshToken == nil && stays.refreshToken != nil)
        #expect(events.accessExpiresAt == SessionsStoreTests.now.addingTimeInterval(7 * 24 * 3600))
        #expect(stays.accessExpiresAt == SessionsStoreTests.now.addingTimeInterval(15 * 60))
        for issued in [bearer, events, stays] {
            #expect(try await service.authenticate(token: issued.accessToken).session.id == issued.session.id)
        }
        // A forged signature and an opaque token that names nothing are both 401.
        #expect(
            await errorCode { try await service.authenticate(token: events.accessToken + "x") } == "session_expired")
        #expect(await errorCode { try await service.authenticate(token: "no-such-token") } == "session_expired")

        // Revoking the events session ends its 7-day token at once; the others live on.
        try await service.revoke(try await service.authenticate(token: events.accessToken))
        #expect(await errorCode { try await service.authenticate(token: events.accessToken) } == "session_expired")
        _ = try await service.authenticate(token: bearer.accessToken)

        clock.advance(by: 15 * 60)
        #expect(await errorCode { try await service.authenticate(token: stays.accessToken) } == "session_expired")
        let refreshed = try await service.refresh(try #require(stays.refreshToken))
        #expect(try await service.authenticate(token: refreshed.accessToken).session.id == stays.session.id)
        try await database.close()
    }
}
