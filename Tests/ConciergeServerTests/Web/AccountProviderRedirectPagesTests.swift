import ConciergeTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// Production's "Continue with Google" without a script: the redirect to the provider with
/// `response_mode=form_post`, and the callback that takes the posted ID token only with the state
/// cookie of the browser that started it and the nonce it was sent with.
@Suite struct AccountProviderRedirectPagesTests {
    static let environment = AccountHTTP.environment.merging(["CONCIERGE_GOOGLE_AUDIENCES": "web-client.example"]) {
        _, new in new
    }

    @Test func theProviderPostsTheIDTokenBackAndTheStateCookieGuardsIt() async throws {
        let app = try await TestApp.make(engine: .sqlite, environment: Self.environment)
        try await app.run { client in
            var browser = WebBrowser(client: client)
            let start = try await browser.get("/account/social/start?provider=google&next=/events", follow: false)
            #expect(start.status == 303)
            let location = try #require(start.location.flatMap(URLComponents.init(string:)))
            #expect(location.host == "accounts.google.com" && location.path == "/o/oauth2/v2/auth")
            let query = Dictionary(
                uniqueKeysWithValues: (location.queryItems ?? []).map { ($0.name, $0.value ?? "") })
            #expect(query["response_mode"] == "form_post" && query["response_type"] == "id_token")
            #expect(query["client_id"] == "web-client.example" && query["scope"] == "openid email")
            #expect(query["redirect_uri"]?.hasSuffix("/account/social/callback") == true)
            let state = try #require(query["state"])
            let nonce = try #require(query["nonce"])
            let cookie = start.headers[values: .setCookie].first { $0.hasPrefix("concierge_oidc_state=") } ?? ""
            #expect(cookie.contains("SameSite=None") && cookie.contains("Secure") && cookie.contains("HttpOnly"))

            // Another browser posting this answer has no state cookie: refused, nobody signed in.
            var attacker = WebBrowser(client: client)
            let token = try await Self.idToken(client, email: "anna@example.ch", nonce: nonce)
            let forged = try await attacker.post(
                "/account/social/callback", form: [("id_token", token), ("state", state)], csrf: false)
            #expect(forged.status == 400 && forged.contains(#"class="errors" role="alert""#))
            #expect(attacker.cookies["concierge_session"] == nil)

            // A token minted for another nonce is refused by the verifier.
            let replayed = try await Self.idToken(client, email: "anna@example.ch", nonce: "another-nonce")
            let wrongNonce = try await browser.post(
                "/account/social/callback", form: [("id_token", replayed), ("state", state)], csrf: false,
                follow: false)
            #expect(wrongNonce.status == 401 && browser.cookies["concierge_session"] == nil)

            _ = try await browser.get("/account/social/start?provider=google&next=/events", follow: false)
            let again = try #require(browser.cookies["concierge_oidc_state"]?.split(separator: "|").map(String.init))
            let signedIn = try await browser.post(
                "/account/social/callback",
                form: [
                    ("id_token", try await Self.idToken(client, email: "anna@example.ch", nonce: again[2])),
                    ("state", again[1]),
                ], csrf: false, follow: false)
            #expect(signedIn.status == 303 && signedIn.location == "/events")
            let session = try #require(browser.cookies["concierge_session"])
            #expect(browser.cookies["concierge_oidc_state"] == nil)
            let account = try await client.send(.get, "/account", token: session)
            let methods = try account.decode(AccountHTTP.AccountBody.self).account.methods
            #expect(methods.contains { $0.kind == "oidc" && $0.identifier.hasPrefix("https://accounts.google.com ") })
        }
    }

    static func idToken(_ client: any TestClientProtocol, email: String, nonce: String) async throws -> String {
        let issued = try await client.send(
            .get, "/dev/id-token?provider=google&email=\(email)&emailVerified=true&nonce=\(nonce)")
        let body = try JSONSerialization.jsonObject(with: Data(buffer: issued.body)) as? [String: String]
        return try #require(body?["idToken"])
    }
}
