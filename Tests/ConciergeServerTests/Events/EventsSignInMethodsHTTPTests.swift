import ConciergeModels
import ConciergeTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// The platform's sign-in methods on the events API (issue 26, item 4): an SMS code and an ID
/// token of any trusted issuer, each through the platform's one `AccountService`, so a person
/// is one account across events, rides and `/account`.
@Suite struct EventsSignInMethodsHTTPTests {
    static func phoneSignIn(_ client: some TestClientProtocol, phone: String) async throws -> Events.AuthResponse {
        let sent = try await client.send(.post, "/events/api/auth/phone/code", json: #"{"phone": "\#(phone)"}"#)
        #expect(sent.status == .ok)
        #expect(
            try sent.decode(Events.PhoneCodeSent.self)
                == Events.PhoneCodeSent(expiresInSeconds: 600, resendAfterSeconds: 30))
        let code = try await client.latestCode()
        let signedIn = try await client.send(
            .post, "/events/api/auth/phone", json: #"{"phone": "\#(phone)", "code": "\#(code)"}"#)
        guard signedIn.status == .ok else { throw TestFailure("phone: \(String(buffer: signedIn.body))") }
        return try signedIn.decode(Events.AuthResponse.self)
    }

    @Test(arguments: TestEngine.all)
    func aPhoneCodeSignsInToEventsAndRidesFindsTheSameAccount(engine: TestEngine) async throws {
        let app = try await EventsTestApp.make(engine)
        try await app.run { client in
            let auth = try await Self.phoneSignIn(client, phone: "+41 79 555 12 34")
            let user = try #require(auth.user)
            #expect(auth.success && user.phone == "+41795551234" && user.email == "")
            let token = try #require(auth.token)
            let verified = try await client.send(.post, "/events/api/auth/verify", token: token)
            #expect(try verified.decode(Events.AuthResponse.self).user?.id == user.id)
            // The same phone on rides is the same person: one account.
            app.clock.advance(by: 31)
            #expect(try await client.signIn(phone: "+41795551234").customer.id == user.id)
            // And signing in by phone again finds it rather than making another.
            app.clock.advance(by: 31)
            #expect(try await Self.phoneSignIn(client, phone: "+41795551234").user?.id == user.id)
        }
    }

    @Test func aWrongPhoneCodeIsRefusedWithTheSeedsFailureBody() async throws {
        let app = try await EventsTestApp.make(.sqlite)
        try await app.run { client in
            _ = try await client.send(.post, "/events/api/auth/phone/code", json: #"{"phone": "+41795551234"}"#)
            let code = try await client.latestCode()
            let wrong = code == "000000" ? "111111" : "000000"
            let refused = try await client.send(
                .post, "/events/api/auth/phone", json: #"{"phone": "+41795551234", "code": "\#(wrong)"}"#)
            #expect(refused.status == .badRequest)
            #expect(String(buffer: refused.body).contains(#""success":false"#))
        }
    }

    @Test(arguments: TestEngine.all)
    func anOIDCIssuersTokenSignsInThroughTheIDTokenRouteWithItsNonce(engine: TestEngine) async throws {
        let app = try await EventsTestApp.make(engine)
        try await app.run { client in
            let issued = try await client.send(
                .get, "/dev/id-token?provider=oidc&sub=staff-7&email=kim%40example.ch&emailVerified=true&nonce=n1")
            let idToken = try #require(try issued.decode([String: String].self)["idToken"])
            // The seed's social route stays Google and Apple only.
            let social = try await client.send(
                .post, "/events/api/auth/social", json: #"{"provider": "oidc", "token": "\#(idToken)"}"#)
            #expect(social.status == .badRequest)
            let otherNonce = try await client.send(
                .post, "/events/api/auth/id-token",
                json: #"{"provider": "oidc", "idToken": "\#(idToken)", "nonce": "n2"}"#)
            #expect(otherNonce.status == .unauthorized)
            let signedIn = try await client.send(
                .post, "/events/api/auth/id-token",
                json: #"{"provider": "oidc", "idToken": "\#(idToken)", "nonce": "n1"}"#)
            #expect(signedIn.status == .ok)
            let auth = try signedIn.decode(Events.AuthResponse.self)
            #expect(auth.user?.email == "kim@example.ch" && auth.user?.emailVerified == true)
            let token = try #require(auth.token)
            #expect(try await client.send(.post, "/events/api/auth/verify", token: token).status == .ok)
            // The platform's account API sees the same account with its OIDC method.
            let account = try await client.send(.get, "/account", token: token)
            #expect(String(buffer: account.body).contains(#""kind":"oidc""#))
        }
    }
}
