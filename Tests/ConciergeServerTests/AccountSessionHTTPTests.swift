import ConciergeTestSupport
import Foundation
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// Platform sessions over HTTP: refresh tokens rotate, a spent one revokes its whole family at
/// once, sign-out ends the session, and a rides token is a session on `/account` too.
@Suite struct AccountSessionHTTPTests {
    @Test(arguments: TestEngine.all)
    func refreshTokensRotateAndReusingASpentOneEndsTheFamily(engine: TestEngine) async throws {
        let app = try await TestApp.make(engine: engine, environment: AccountHTTP.environment)
        try await app.run { client in
            let first = try await client.signUp(email: "anna@example.ch").decode(AccountHTTP.Session.self)
            let firstRefresh = try #require(first.refreshToken)

            app.clock.advance(by: 60)
            let second = try await client.refresh(firstRefresh)
            #expect(second.status == .ok)
            let rotated = try second.decode(AccountHTTP.Session.self)
            #expect(rotated.refreshToken != firstRefresh)
            #expect(rotated.accessToken != first.accessToken)
            #expect(try await client.send(.get, "/account", token: rotated.accessToken).status == .ok)

            // The spent token again: someone has a copy. The family ends, the newest token with it.
            let reused = try await client.refresh(firstRefresh)
            #expect(reused.status == .unauthorized)
            #expect(reused.errorBody?.code == "invalid_refresh_token")
            #expect(try await client.send(.get, "/account", token: rotated.accessToken).status == .unauthorized)
            #expect(try await client.refresh(try #require(rotated.refreshToken)).status == .unauthorized)

            // Another sign-in is another family, untouched.
            let other = try await client.send(
                .post, "/account/sign-in",
                json: #"{"login": "anna@example.ch", "password": "\#(AccountHTTP.password)"}"#)
            #expect(other.status == .ok)
        }
    }

    @Test(arguments: TestEngine.all)
    func accessTokensLastFifteenMinutesAndSignOutEndsTheSessionAtOnce(engine: TestEngine) async throws {
        let app = try await TestApp.make(engine: engine, environment: AccountHTTP.environment)
        try await app.run { client in
            let session = try await client.signUp(email: "anna@example.ch").decode(AccountHTTP.Session.self)
            app.clock.advance(by: 15 * 60)
            #expect(try await client.send(.get, "/account", token: session.accessToken).status == .unauthorized)
            let refreshed = try await client.refresh(try #require(session.refreshToken)).decode(
                AccountHTTP.Session.self)
            #expect(try await client.send(.get, "/account", token: refreshed.accessToken).status == .ok)

            let signedOut = try await client.send(.post, "/account/sign-out", token: refreshed.accessToken)
            #expect(signedOut.status == .ok)
            let after = try await client.send(.get, "/account", token: refreshed.accessToken)
            #expect(after.status == .unauthorized)
            #expect(after.errorBody?.code == "session_expired")
            #expect(try await client.refresh(try #require(refreshed.refreshToken)).status == .unauthorized)
        }
    }

    @Test(arguments: TestEngine.all)
    func aRidesTokenIsASessionOnTheAccountRoutes(engine: TestEngine) async throws {
        let app = try await TestApp.make(engine: engine, environment: AccountHTTP.environment)
        try await app.run { client in
            let rides = try await client.signIn(phone: "+41791234567")
            let account = try await client.send(.get, "/account", token: rides.sessionToken)
            #expect(account.status == .ok)
            let body = try account.decode(AccountHTTP.AccountBody.self).account
            #expect(body.id == rides.customer.id)
            #expect(body.verifiedPhones == ["+41791234567"])
            // Signing out on the platform ends the rides session too: it is one row.
            _ = try await client.send(.post, "/account/sign-out", token: rides.sessionToken)
            #expect(try await client.send(.get, "/rides/me", token: rides.sessionToken).status == .unauthorized)
        }
    }
}

extension TestClientProtocol {
    func refresh(_ refreshToken: String) async throws -> TestResponse {
        try await send(.post, "/account/token/refresh", json: #"{"refreshToken": "\#(refreshToken)"}"#)
    }
}
