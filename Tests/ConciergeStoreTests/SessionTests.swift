import ConciergeCore
import ConciergeTestSupport
import Testing

@Suite struct SessionTests {
    @Test(arguments: TestEngine.all)
    func aSessionLastsSevenDays(engine: TestEngine) async throws {
        let fixture = try await SignInFixture(engine: engine)
        let signedIn = try await fixture.signIn()
        fixture.clock.advance(by: 7 * 24 * 3600 - 1)
        let session = try await fixture.service.authenticate(token: signedIn.sessionToken)
        #expect(session.customer.id == signedIn.customer.id)
        fixture.clock.advance(by: 1)
        #expect(
            await errorCode { try await fixture.service.authenticate(token: signedIn.sessionToken) }
                == "session_expired")
        try await fixture.close()
    }

    @Test(arguments: TestEngine.all)
    func logoutRevokesOnlyThatSession(engine: TestEngine) async throws {
        let fixture = try await SignInFixture(engine: engine)
        let phone = try await fixture.signIn()
        fixture.clock.advance(by: 30)
        let laptop = try await fixture.signIn()
        try await fixture.service.logout(try await fixture.service.authenticate(token: phone.sessionToken))
        #expect(
            await errorCode { try await fixture.service.authenticate(token: phone.sessionToken) } == "session_expired")
        _ = try await fixture.service.authenticate(token: laptop.sessionToken)
        try await fixture.close()
    }

    @Test(arguments: TestEngine.all)
    func unknownMissingAndOverlongTokensAreRejected(engine: TestEngine) async throws {
        let fixture = try await SignInFixture(engine: engine)
        for token in [nil, "", "not-a-token", String(repeating: "a", count: 10_000)] {
            #expect(await errorCode { try await fixture.service.authenticate(token: token) } == "session_expired")
        }
        try await fixture.close()
    }

    @Test(arguments: TestEngine.all)
    func theStoreKeepsOnlyTheTokensHash(engine: TestEngine) async throws {
        let fixture = try await SignInFixture(engine: engine)
        let signedIn = try await fixture.signIn()
        let rows = try await fixture.database.query("SELECT token_hash FROM sessions")
        #expect(rows.count == 1)
        #expect(try rows[0].string("token_hash") != signedIn.sessionToken)
        let codes = try await fixture.database.query("SELECT * FROM code_challenges")
        #expect(codes.isEmpty)
        try await fixture.close()
    }

    @Test(arguments: TestEngine.all)
    func profileChangesAreValidatedAndStored(engine: TestEngine) async throws {
        let fixture = try await SignInFixture(engine: engine)
        let signedIn = try await fixture.signIn()
        let profiles = ProfileService(store: fixture.store)
        let updated = try await profiles.update(
            signedIn.customer, name: .set("  Anna Muster "), email: .set("Anna@Example.CH"))
        #expect(updated.name == "Anna Muster")
        #expect(updated.email == "Anna@example.ch")
        let cleared = try await profiles.update(updated, name: .keep, email: .clear)
        #expect(cleared.name == "Anna Muster")
        #expect(cleared.email == nil)
        #expect(await errorCode { try await profiles.update(cleared, name: .set(""), email: .keep) } == "invalid_name")
        #expect(
            await errorCode { try await profiles.update(cleared, name: .keep, email: .set("anna@")) } == "invalid_email"
        )
        try await fixture.close()
    }
}
