import ConciergeTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// The email links' pages, `/account` as a page for a browser and JSON for everyone else, sign
/// out everywhere and deletion, through HTTP in process.
@Suite struct AccountSettingsPagesTests {
    @Test func theEmailLinksOpenPagesThatVerifyAndResetByAButton() async throws {
        let app = try await TestApp.make(engine: .sqlite, environment: AccountHTTP.environment)
        try await app.runWithWorker { client, worker in
            var browser = WebBrowser(client: client)
            _ = try await browser.navigate("/account/sign-up")
            _ = try await browser.submit(
                "/account/web/sign-up", form: [("email", "anna@example.ch"), ("password", AccountHTTP.password)])
            // Signed in, the browser that opens the link is the one who signed up: it keeps everything.
            _ = try await browser.submit(
                "/account/web/sign-in", form: [("login", "anna@example.ch"), ("password", AccountHTTP.password)])
            let verification = try await client.mailedToken(
                to: "anna@example.ch", subject: "Confirm", delivering: worker)
            let verify = try await browser.navigate("/account/verify-email?token=\(verification)")
            #expect(verify.contains(#"action="/account/web/verify-email""#) && verify.contains(verification))
            let verified = try await browser.submit("/account/web/verify-email", form: [("token", verification)])
            #expect(verified.contains("Your email address is confirmed"))
            #expect(verified.contains(#"account-badge ok""#))
            let again = try await browser.submit("/account/web/verify-email", form: [("token", verification)])
            #expect(again.status == 400 && again.contains("expired or was used already"))

            let forgot = try await browser.navigate("/account/forgot-password")
            #expect(forgot.contains(#"action="/account/web/forgot-password""#))
            let sent = try await browser.submit("/account/web/forgot-password", form: [("email", "anna@example.ch")])
            #expect(sent.contains("a link to choose a new password is on its way"))
            let reset = try await client.mailedToken(to: "anna@example.ch", subject: "Reset", delivering: worker)
            let page = try await browser.navigate("/account/reset-password?token=\(reset)")
            #expect(page.contains(#"name="token" value="\#(reset)""#))
            let weak = try await browser.submit(
                "/account/web/reset-password", form: [("token", reset), ("password", "short")])
            #expect(weak.status == 400 && weak.contains(#"id="password-error""#))
            let done = try await browser.submit(
                "/account/web/reset-password", form: [("token", reset), ("password", "a brand new passphrase")])
            #expect(done.contains("Your password is changed"))
            #expect(browser.cookies["concierge_session"] == nil)
            let signedIn = try await browser.submit(
                "/account/web/sign-in", form: [("login", "anna@example.ch"), ("password", "a brand new passphrase")])
            #expect(signedIn.contains("<h1>Your account</h1>"))
        }
    }

    @Test func accountIsAPageForABrowserAndUnchangedJSONForEveryoneElse() async throws {
        let app = try await TestApp.make(engine: .sqlite, environment: AccountHTTP.environment)
        try await app.run { client in
            let session = try await client.signUp(email: "anna@example.ch", name: "Anna").decode(
                AccountHTTP.Session.self)
            for accept in ["application/json", "*/*", "application/json, text/html"] {
                let json = try await client.send(
                    .get, "/account", token: session.accessToken, headers: [.accept: accept])
                #expect(json.status == .ok)
                #expect(json.headers[.contentType]?.hasPrefix("application/json") == true)
                #expect(try json.decode(AccountHTTP.AccountBody.self).account.name == "Anna")
            }
            let unsigned = try await client.send(.get, "/account", headers: [.accept: "application/json"])
            #expect(unsigned.status == .unauthorized)
            #expect(unsigned.errorBody?.code == "session_expired")
            // The sign-in and sign-up paths still take only POST from API clients.
            let notAPage = try await client.send(.get, "/account/sign-in", headers: [.accept: "application/json"])
            #expect(notAPage.status == .methodNotAllowed)

            var browser = WebBrowser(client: client)
            let toSignIn = try await browser.get("/account", headers: WebBrowser.navigation, follow: false)
            #expect(toSignIn.status == 303 && toSignIn.location == "/account/sign-in?next=%2Faccount")
            _ = try await browser.navigate("/account/sign-in")
            let page = try await browser.submit(
                "/account/web/sign-in", form: [("login", "anna@example.ch"), ("password", AccountHTTP.password)])
            #expect(page.headers[.contentType]?.hasPrefix("text/html") == true)
            #expect(page.contains("Anna") && page.contains("anna@example.ch") && page.contains("not confirmed yet"))
            #expect(page.contains(#"action="/account/web/sign-out-everywhere""#))
        }
    }

    @Test func signOutEverywhereEndsTheAppsSessionsToo() async throws {
        let app = try await TestApp.make(engine: .sqlite, environment: AccountHTTP.environment)
        try await app.run { client in
            let app = try await client.signUp(email: "anna@example.ch").decode(AccountHTTP.Session.self)
            #expect(try await client.send(.get, "/account", token: app.accessToken).status == .ok)
            var browser = WebBrowser(client: client)
            _ = try await browser.navigate("/account/sign-in")
            _ = try await browser.submit(
                "/account/web/sign-in", form: [("login", "anna@example.ch"), ("password", AccountHTTP.password)])
            let out = try await browser.submit("/account/web/sign-out-everywhere", form: [])
            #expect(out.contains("You are signed out everywhere"))
            #expect(browser.cookies["concierge_session"] == nil)
            #expect(try await client.send(.get, "/account", token: app.accessToken).status == .unauthorized)
            let refreshed = try await client.send(
                .post, "/account/token/refresh", json: #"{"refreshToken": "\#(app.refreshToken ?? "")"}"#)
            #expect(refreshed.status == .unauthorized)
        }
    }

    @Test func deletingTheAccountAsksFirstThenErasesItAndSignsOut() async throws {
        let app = try await TestApp.make(engine: .sqlite, environment: AccountHTTP.environment)
        try await app.run { client in
            _ = try await client.signUp(email: "anna@example.ch")
            var browser = WebBrowser(client: client)
            _ = try await browser.navigate("/account/sign-in")
            let account = try await browser.submit(
                "/account/web/sign-in", form: [("login", "anna@example.ch"), ("password", AccountHTTP.password)])
            #expect(account.contains(#"href="/account/delete""#))
            let confirm = try await browser.navigate("/account/delete")
            #expect(confirm.contains("Delete your account?") && confirm.contains(#"action="/account/web/delete""#))
            let deleted = try await browser.submit("/account/web/delete", form: [])
            #expect(deleted.contains("Your account is deleted"))
            #expect(browser.cookies["concierge_session"] == nil)
            let signIn = try await client.send(
                .post, "/account/sign-in",
                json: #"{"login": "anna@example.ch", "password": "\#(AccountHTTP.password)"}"#)
            #expect(signIn.status == .unauthorized)
            let free = try await client.signUp(email: "anna@example.ch")
            #expect(free.status == .ok)
        }
    }

    @Test func linkingAPhoneByItsCodeAndAnotherAccountByItsPasswordSaysMistakesNextToTheField() async throws {
        let app = try await TestApp.make(engine: .sqlite, environment: AccountHTTP.environment)
        try await app.runWithWorker { client, worker in
            _ = try await client.verifiedSignUp(email: "anna@example.ch", delivering: worker)
            _ = try await client.signUp(username: "anna_old", password: "the old passphrase")
            var browser = WebBrowser(client: client)
            _ = try await browser.navigate("/account/sign-in")
            _ = try await browser.submit(
                "/account/web/sign-in", form: [("login", "anna@example.ch"), ("password", AccountHTTP.password)])

            let sent = try await browser.submit("/account/web/link/phone-code", form: [("phone", "+41 79 123 45 67")])
            #expect(sent.contains("We texted a code") && sent.contains(#"action="/account/web/link/phone""#))
            let wrongCode = try await browser.submit(
                "/account/web/link/phone", form: [("phone", "+41 79 123 45 67"), ("code", "000000")])
            #expect(wrongCode.status == 400 && wrongCode.contains(#"id="code-error" role="alert""#))
            let code = try await client.latestCode()
            let phone = try await browser.submit(
                "/account/web/link/phone", form: [("phone", "+41 79 123 45 67"), ("code", code)])
            #expect(phone.contains("The sign-in method is added") && phone.contains("+41791234567"))

            let wrong = try await browser.submit(
                "/account/web/link/password", form: [("login", "anna_old"), ("password", "not it at all")])
            #expect(wrong.status == 401 && wrong.contains(#"id="link_password-error" role="alert""#))
            let joined = try await browser.submit(
                "/account/web/link/password", form: [("login", "anna_old"), ("password", "the old passphrase")])
            #expect(joined.contains("The sign-in method is added") && joined.contains("anna_old"))
            #expect(joined.contains(#"data-kind="phone""#) && joined.contains(#"data-kind="username""#))
        }
    }
}
