import ConciergeModels
import ConciergeTestSupport
import Foundation
import Testing

/// The platform's sign-in methods on the stays API (issue 26, item 4): an SMS code and an ID
/// token of any trusted issuer, answered in the seed's wrapper with the seed's `User`, and a
/// guest profile for an account that never registered here.
@Suite struct StaysSignInMethodsHTTPTests {
    @Test(arguments: TestEngine.all)
    func aPhoneCodeSignsInAGuestWhoseProfileCarriesThePhone(engine: TestEngine) async throws {
        let app = try await TestApp.make(engine: engine, environment: StaysFixtures.environment)
        try await app.run { client in
            let sent = try await client.stays(
                .post, "/login/phone/code", json: #"{"phone": "+41 79 555 12 34"}"#, as: Stays.PhoneCodeSent.self)
            #expect(sent.status == .ok && sent.data?.expiresInSeconds == 600)
            let code = try await client.latestCode()
            let user = try await client.stays(
                .post, "/login/phone", json: #"{"phone": "+41795551234", "code": "\#(code)"}"#, as: Stays.User.self
            ).require()
            #expect(user.guestId > 0 && user.expiresIn == 900 && !user.refreshToken.isEmpty)
            let profile = try await client.stays(
                .get, "/user/\(user.username)", token: user.token, as: Stays.Profile.self
            ).require()
            #expect(profile.phone == "+41795551234" && Int64(profile.guestId) == user.guestId)
            // The refresh token works as a password sign-in's does.
            let refreshed = try await client.stays(
                .post, "/auth/refresh", json: #"{"refreshToken": "\#(user.refreshToken)"}"#, as: Stays.User.self)
            #expect(refreshed.status == .ok && refreshed.data?.guestId == user.guestId)
            // Rides with the same phone is the same account.
            app.clock.advance(by: 31)
            let rides = try await client.signIn(phone: "+41795551234")
            let account = try await client.send(.get, "/account", token: user.token)
            #expect(String(buffer: account.body).contains(rides.customer.id))
        }
    }

    @Test(arguments: TestEngine.all)
    func anIDTokenSignsInAndAVerifiedEmailFindsTheRegisteredGuest(engine: TestEngine) async throws {
        let app = try await TestApp.make(engine: engine, environment: StaysFixtures.environment)
        try await app.runWithWorker { client, worker in
            // A registered guest proves the address, then signs in with an OIDC token for it.
            _ = try await client.staysSignUp("anna.m")
            let outbox = try await client.staysOutbox(containing: "verify-email?token=", delivering: worker)
            let range = try #require(outbox.range(of: "verify-email?token="))
            let link = String(
                outbox[range.upperBound...].prefix { !$0.isWhitespace && $0 != "&" && $0 != "\\" && $0 != "\"" })
            let confirmed = try await client.send(.post, "/account/email/verify", json: #"{"token": "\#(link)"}"#)
            #expect(confirmed.status == .ok)

            let issued = try await client.send(
                .get, "/dev/id-token?provider=oidc&sub=anna-1&email=anna.m%40example.ch&emailVerified=true")
            let idToken = try #require(try issued.decode([String: String].self)["idToken"])
            let user = try await client.stays(
                .post, "/login/id-token", json: #"{"provider": "oidc", "idToken": "\#(idToken)"}"#,
                as: Stays.User.self
            ).require()
            #expect(user.username == "anna.m")

            let unknown = try await client.stays(
                .post, "/login/id-token", json: #"{"provider": "facebook", "idToken": "\#(idToken)"}"#)
            #expect(unknown.status == .badRequest && unknown.envelope.errorType == "invalid_provider")
            let forged = try await client.stays(
                .post, "/login/id-token", json: #"{"provider": "oidc", "idToken": "a.b.c"}"#)
            #expect(forged.status == .unauthorized)
        }
    }
}
