import ConciergeTestSupport
import Foundation
import Testing

/// The start page, the language switch and the operator's sign-in, through HTTP in process.
@Suite struct HomeAndOperationsPagesTests {
    static let adminToken = "pages-admin-token-0123456789abcdef0123"

    @Test func theStartPageSpeaksTheVisitorsLanguage() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            var browser = WebBrowser(client: client)
            let english = try await browser.get("/")
            #expect(english.status == 200)
            #expect(english.contains(#"<html lang="en">"#) && english.contains(">Rides</a>"))
            let german = try await browser.get("/", headers: [.acceptLanguage: "de-CH,de;q=0.9,en;q=0.5"])
            #expect(german.contains(#"<html lang="de">"#) && german.contains(">Fahrten</a>"))
            let chosen = try await browser.get("/?lang=en", headers: [.acceptLanguage: "de-CH"])
            #expect(chosen.contains(#"<html lang="en">"#))
            #expect(browser.cookies["concierge_lang"] == "en")
        }
    }

    @Test func anOperatorSignsInWithTheAdminTokenAndAWrongTokenIsSaidNextToTheField() async throws {
        let app = try await TestApp.make(engine: .sqlite, environment: ["CONCIERGE_ADMIN_TOKEN": Self.adminToken])
        try await app.run { client in
            var browser = WebBrowser(client: client)
            let signIn = try await browser.get("/ops")
            #expect(signIn.contains(#"action="/ops/sign-in""#))
            let wrong = try await browser.post("/ops/sign-in", form: [("token", "nope"), ("next", "/ops")])
            #expect(wrong.status == 401)
            #expect(wrong.contains(#"id="sign-in-error" role="alert""#) && wrong.contains(#"aria-invalid="true""#))
            let index = try await browser.post("/ops/sign-in", form: [("token", Self.adminToken), ("next", "/ops")])
            #expect(index.status == 200 && index.contains("Ride dispatch"))
            let out = try await browser.post("/ops/sign-out", form: [])
            #expect(out.status == 200)
            let signedOut = try await browser.get("/ops", follow: false)
            #expect(signedOut.status == 303)
        }
    }

    @Test func aFormWithoutItsCSRFTokenIsRefusedAndANextPathNeverLeavesTheSite() async throws {
        let app = try await TestApp.make(engine: .sqlite, environment: ["CONCIERGE_ADMIN_TOKEN": Self.adminToken])
        try await app.run { client in
            var browser = WebBrowser(client: client)
            _ = try await browser.get("/ops/sign-in")
            let forged = try await browser.post("/ops/sign-in", form: [("token", Self.adminToken)], csrf: false)
            #expect(forged.status == 403)
            _ = try await browser.get("/ops/sign-in")
            let away = try await browser.post(
                "/ops/sign-in", form: [("token", Self.adminToken), ("next", "//evil.example/")], follow: false)
            #expect(away.location == "/")
        }
    }

    @Test func withoutAnAdminTokenThereAreNoOperationsPages() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            var browser = WebBrowser(client: client)
            let ops = try await browser.get("/ops")
            #expect(ops.status == 404)
        }
    }
}
