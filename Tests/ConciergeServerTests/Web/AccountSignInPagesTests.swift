import ConciergeTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// Sign-up, sign-in, throttling and the dev provider's "Continue with Google" as a browser
/// does them, through HTTP in process.
@Suite struct AccountSignInPagesTests {
    @Test func signUpSaysEachFieldsProblemNextToItAndThenSignsIn() async throws {
        let app = try await TestApp.make(engine: .sqlite, environment: AccountHTTP.environment)
        try await app.run { client in
            var browser = WebBrowser(client: client)
            let form = try await browser.navigate("/account/sign-up")
            #expect(form.status == 200 && form.contains(#"action="/account/web/sign-up""#))
            #expect(form.contains("Continue with Google"))

            let badEmail = try await browser.submit(
                "/account/web/sign-up", form: [("email", "anna-at-example"), ("password", AccountHTTP.password)])
            #expect(badEmail.status == 400)
            #expect(badEmail.contains(#"id="email-error" role="alert""#))
            #expect(badEmail.contains(#"value="anna-at-example""#))

            let weak = try await browser.submit(
                "/account/web/sign-up", form: [("email", "anna@example.ch"), ("password", "short")])
            #expect(weak.status == 400)
            #expect(weak.contains(#"id="password-error" role="alert""#) && weak.contains("10 to 128 characters"))

            let badName = try await browser.submit(
                "/account/web/sign-up",
                form: [("email", "anna@example.ch"), ("username", "a"), ("password", AccountHTTP.password)])
            #expect(badName.contains(#"id="username-error""#))

            // Accepted, the page says "check your mail" and asks to sign in; a taken address
            // gets the very same page (finding 11), and the sign-in then signs in.
            let account = try await browser.submit(
                "/account/web/sign-up",
                form: [("email", "anna@example.ch"), ("name", "Anna"), ("password", AccountHTTP.password)])
            #expect(account.status == 200)
            #expect(account.contains("Check your mail") && account.contains(#"action="/account/web/sign-in""#))
            #expect(browser.cookies["concierge_session"] == nil)

            var other = WebBrowser(client: client)
            _ = try await other.navigate("/account/sign-up")
            let taken = try await other.submit(
                "/account/web/sign-up", form: [("email", "ANNA@example.ch"), ("password", AccountHTTP.password)])
            #expect(taken.status == account.status)
            #expect(taken.contains("Check your mail") && !taken.contains("already registered"))

            let signedIn = try await browser.submit(
                "/account/web/sign-in", form: [("login", "anna@example.ch"), ("password", AccountHTTP.password)])
            #expect(signedIn.contains("anna@example.ch") && browser.cookies["concierge_session"] != nil)
        }
    }

    @Test func signInSetsTheSessionCookieAndAWrongPasswordIsSaidNextToTheField() async throws {
        let app = try await TestApp.make(engine: .sqlite, environment: AccountHTTP.environment)
        try await app.run { client in
            _ = try await client.signUp(email: "anna@example.ch")
            var browser = WebBrowser(client: client)
            let page = try await browser.navigate("/account/sign-in?next=/events")
            #expect(page.contains(#"name="next" value="/events""#))
            #expect(page.contains(#"href="/rides""#))

            let empty = try await browser.submit("/account/web/sign-in", form: [("login", ""), ("password", "")])
            #expect(empty.status == 400 && empty.contains(#"id="login-error""#))

            let wrong = try await browser.submit(
                "/account/web/sign-in", form: [("login", "anna@example.ch"), ("password", "not the password")])
            #expect(wrong.status == 401)
            #expect(wrong.contains(#"id="password-error" role="alert""#) && wrong.contains("is not right"))
            #expect(wrong.contains(#"aria-invalid="true""#))
            #expect(browser.cookies["concierge_session"] == nil)

            let signedIn = try await browser.post(
                "/account/web/sign-in",
                form: [("login", "anna@example.ch"), ("password", AccountHTTP.password), ("next", "/account")],
                follow: false)
            #expect(signedIn.status == 303 && signedIn.location == "/account")
            let cookie = signedIn.headers[values: .setCookie].first { $0.hasPrefix("concierge_session=") } ?? ""
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"))
            let account = try await browser.navigate("/account")
            #expect(account.status == 200 && account.contains("<h1>Your account</h1>"))

            // The cookie is a platform bearer session of the web: the API takes it too.
            let token = try #require(browser.cookies["concierge_session"])
            #expect(try await client.send(.get, "/account", token: token).status == .ok)
        }
    }

    @Test func throttledSignInIsSaidAsASentence() async throws {
        var environment = AccountHTTP.environment
        environment["CONCIERGE_SIGNIN_PER_ACCOUNT"] = "2"
        let app = try await TestApp.make(engine: .sqlite, environment: environment)
        try await app.run { client in
            _ = try await client.signUp(email: "anna@example.ch")
            var browser = WebBrowser(client: client)
            _ = try await browser.navigate("/account/sign-in")
            for _ in 0..<2 {
                _ = try await browser.submit(
                    "/account/web/sign-in", form: [("login", "anna@example.ch"), ("password", "wrong password")])
            }
            let throttled = try await browser.submit(
                "/account/web/sign-in", form: [("login", "anna@example.ch"), ("password", AccountHTTP.password)])
            #expect(throttled.status == 429)
            #expect(throttled.contains(#"class="errors" role="alert""#))
            #expect(throttled.contains("Too many sign-in attempts. Wait 15 minutes, then try again."))

            let german = try await browser.submit(
                "/account/web/sign-in?lang=de", form: [("login", "anna@example.ch"), ("password", "x")])
            #expect(german.status == 429 && german.contains("Zu viele Anmeldeversuche"))
        }
    }

    @Test func continueWithGoogleInDevJoinsTheAccountWithTheSameVerifiedEmail() async throws {
        let app = try await TestApp.make(engine: .sqlite, environment: AccountHTTP.environment)
        try await app.runWithWorker { client, worker in
            let session = try await client.verifiedSignUp(email: "anna@example.ch", delivering: worker)

            var browser = WebBrowser(client: client)
            let signIn = try await browser.navigate("/account/sign-in")
            let href = try #require(signIn.firstMatch(#"href="(/account/social/dev\?provider=google[^"]*)""#))
            let page = try await browser.navigate(href.replacingOccurrences(of: "&amp;", with: "&"))
            #expect(page.contains("Continue with Google (dev)"))
            let account = try await browser.submit(
                "/account/web/social/dev",
                form: [
                    ("provider", "google"), ("intent", "sign-in"), ("email", "anna@example.ch"), ("verified", "true"),
                ])
            #expect(account.status == 200 && account.contains(#"data-kind="oidc""#) && account.contains(">Google<"))

            let api = try await client.send(.get, "/account", token: session.accessToken)
            let joined = try api.decode(AccountHTTP.AccountBody.self).account
            #expect(joined.id == session.account?.id)
            #expect(
                joined.methods.contains { $0.kind == "oidc" && $0.identifier.hasPrefix("https://accounts.google.com ") }
            )
        }
    }
}

extension WebBrowser {
    /// What a browser's navigation asks for: HTML first.
    static let navigation: HTTPFields = [.accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"]

    /// A browser's navigation to `path`, following redirects, each asking for HTML first.
    mutating func navigate(_ path: String) async throws -> WebPage {
        var page = try await get(path, headers: Self.navigation, follow: false)
        var hops = 0
        while let location = page.location, [301, 302, 303, 307].contains(page.status), hops < 8 {
            page = try await get(location, headers: Self.navigation, follow: false)
            hops += 1
        }
        return page
    }

    /// Posts a form with the last page's CSRF token and navigates to where it redirects.
    mutating func submit(_ path: String, form: [(String, String)]) async throws -> WebPage {
        let answer = try await post(path, form: form, follow: false)
        guard let location = answer.location, answer.status == 303 else { return answer }
        return try await navigate(location)
    }
}
