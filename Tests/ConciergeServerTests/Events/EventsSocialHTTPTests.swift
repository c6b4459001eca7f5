import ConciergeModels
import ConciergeTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// Social sign-in of the events app with ID tokens from `/dev/id-token`: trusted in dev mode,
/// so the app's Google and Apple buttons work offline, and refused by a production server.
@Suite struct EventsSocialHTTPTests {
    static func devToken(_ client: some TestClientProtocol, provider: String, email: String) async throws -> String {
        let escaped = email.replacingOccurrences(of: "@", with: "%40")
        let issued = try await client.send(
            .get, "/dev/id-token?provider=\(provider)&email=\(escaped)&emailVerified=true&sub=dev-\(escaped)")
        return try #require(try issued.decode([String: String].self)["idToken"])
    }

    static func social(_ client: some TestClientProtocol, provider: String, token: String) async throws
        -> TestResponse
    {
        try await client.send(
            .post, "/events/api/auth/social", json: #"{"provider": "\#(provider)", "token": "\#(token)"}"#)
    }

    @Test(arguments: TestEngine.all)
    func devIDTokensSignInInDevModeOnly(engine: TestEngine) async throws {
        let dev = try await EventsTestApp.make(engine)
        let devToken = try await dev.run { client in
            let token = try await Self.devToken(client, provider: "google", email: "sam@example.ch")
            let signedIn = try await Self.social(client, provider: "google", token: token)
            #expect(signedIn.status == .ok)
            let auth = try signedIn.decode(Events.AuthResponse.self)
            #expect(auth.user?.email == "sam@example.ch" && auth.user?.emailVerified == true)
            let session = try #require(auth.token)
            #expect(try await client.send(.post, "/events/api/auth/verify", token: session).status == .ok)
            // The provider said the email is verified: the buyer may buy at once.
            #expect(try await client.seatCheckout(session, seats: ["gallery-Q1"]).status == .ok)

            let apple = try await Self.devToken(client, provider: "apple", email: "ida@example.ch")
            #expect(try await Self.social(client, provider: "apple", token: apple).status == .ok)
            // A dev token names its provider: not another one's.
            #expect(try await Self.social(client, provider: "google", token: apple).status == .unauthorized)
            return token
        }

        var production: [String: String] = [
            "CONCIERGE_BCRYPT_COST": "4", "CONCIERGE_MODE": "production",
            "CONCIERGE_SECRET": String(repeating: "s", count: 40),
            "TWILIO_ACCOUNT_SID": "AC" + String(repeating: "0", count: 32), "TWILIO_AUTH_TOKEN": "token",
            "TWILIO_FROM": "+41445551234", "SMTP_URL": "smtp://user:pw@127.0.0.1:2525?from=events@example.com",
            "CONCIERGE_PAYMENT_PROVIDER": "mollie", "MOLLIE_API_KEY": "test_abc",
            "CONCIERGE_ALLOW_TEST_PAYMENTS": "true", "CONCIERGE_PUBLIC_URL": "https://tickets.example.ch",
        ]
        production["CONCIERGE_GOOGLE_AUDIENCES"] = DevIdentityAudience.value
        let app = try await TestApp.make(engine: engine, environment: production, clock: dev.clock)
        try await app.run { client in
            let refused = try await Self.social(client, provider: "google", token: devToken)
            #expect(refused.status == .unauthorized)
            #expect(String(buffer: refused.body).contains(#""success":false"#))
        }
    }
}
