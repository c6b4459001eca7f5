import ConciergeTestSupport
import Foundation
import Testing

@testable import ConciergeServer

/// `/ops` sign-in is a server-side session (review 2026-11-27, finding 10): sign-out revokes it at
/// once, so a copied cookie stops working; a customer's session in the operator cookie is no
/// operator.
@Suite struct OperatorSessionPagesTests {
    static let adminToken = "operator-session-admin-token-0123456789"

    @Test func aCopiedOperatorCookieStopsWorkingWhenTheOperatorSignsOut() async throws {
        let app = try await TestApp.make(engine: .sqlite, environment: ["CONCIERGE_ADMIN_TOKEN": Self.adminToken])
        try await app.run { client in
            var desk = WebBrowser(client: client)
            _ = try await desk.get("/ops/sign-in")
            let index = try await desk.post(
                "/ops/sign-in", form: [("token", Self.adminToken), ("next", "/ops/orders")])
            #expect(index.status == 200)
            let copied = try #require(desk.cookies["concierge_ops"])
            #expect(!copied.isEmpty)

            var thief = WebBrowser(client: client)
            thief.setCookie("concierge_ops", copied)
            #expect(try await thief.get("/ops/orders", follow: false).status == 200)

            _ = try await desk.get("/ops")
            #expect(try await desk.post("/ops/sign-out", form: [], follow: false).status == 303)
            let after = try await thief.get("/ops/orders", follow: false)
            #expect(after.status == 303 && after.location?.hasPrefix("/ops/sign-in") == true)
        }
    }

    @Test func aCustomersSessionIsNoOperatorSession() async throws {
        let app = try await TestApp.make(engine: .sqlite, environment: ["CONCIERGE_ADMIN_TOKEN": Self.adminToken])
        try await app.run { client in
            let customer = try await client.signIn(phone: "+41791110009").sessionToken
            var browser = WebBrowser(client: client)
            browser.setCookie("concierge_ops", customer)
            let page = try await browser.get("/ops", follow: false)
            #expect(page.status == 303 && page.location?.hasPrefix("/ops/sign-in") == true)
        }
    }
}
