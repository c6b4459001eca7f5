import ConciergeTestSupport
import Foundation
import Testing

@testable import ConciergeServer

/// Where a page sends the visitor after a form (`next=`): a path on this site, or `/`. The tab
/// trick of the 2026-11-27 review (finding 2) — `/<TAB>/evil.example`, which a browser reads as
/// `//evil.example` — on every page that takes `next=`.
@Suite struct NextPathPagesTests {
    static let adminToken = "next-path-admin-token-0123456789abcdef"
    static let tabbed = "/\t/evil.example/phish"
    static let tabbedQuery = "next=%2F%09%2Fevil.example%2Fphish"

    @Test(arguments: [
        "/\t/evil.example/phish", "/\n/evil.example", "/\r\n/evil.example", "//evil.example", "/\\evil.example",
        "\\\\evil.example", "https://evil.example/", "javascript:alert(1)", "evil.example", "/\u{0}x", "/x\u{7F}",
        "/ /evil.example", "/caf\u{E9}", String(repeating: "/a", count: 300),
    ])
    func aValueThatIsNotAPathOnThisSiteBecomesTheStartPage(_ raw: String) {
        #expect(WebFrontEnd.localPath(raw) == "/")
    }

    @Test(arguments: [
        "/account", "/events/shows/shw_1?seats=2&lang=de", "/ops/stays?date=2027-02-01", "/a%2F%2Fb", "/",
    ])
    func aPathOnThisSiteIsKept(_ raw: String) {
        #expect(WebFrontEnd.localPath(raw) == raw)
    }

    @Test func noValueLeavesThePagesOwnDefault() {
        #expect(WebFrontEnd.localPath(nil) == nil)
        #expect(WebFrontEnd.localPath("") == nil)
    }

    @Test func everySignInPageOffersTheStartPageForATabbedNext() async throws {
        var environment = AccountHTTP.environment
        environment["CONCIERGE_ADMIN_TOKEN"] = Self.adminToken
        let app = try await TestApp.make(engine: .sqlite, environment: environment)
        try await app.run { client in
            for path in ["/account/sign-in", "/account/sign-up", "/stays/sign-in", "/stays/register", "/ops/sign-in"] {
                var browser = WebBrowser(client: client)
                let page = try await browser.navigate("\(path)?\(Self.tabbedQuery)")
                #expect(page.status == 200, "\(path)")
                #expect(page.contains(#"name="next" value="/""#), "\(path)")
                #expect(!page.contains(#"name="next" value="/\#t"#), "\(path)")
            }
        }
    }

    @Test func signingInWithATabbedNextLandsOnThisSite() async throws {
        var environment = AccountHTTP.environment
        environment["CONCIERGE_ADMIN_TOKEN"] = Self.adminToken
        let app = try await TestApp.make(engine: .sqlite, environment: environment)
        try await app.run { client in
            _ = try await client.signUp(email: "anna@example.ch")
            var customer = WebBrowser(client: client)
            _ = try await customer.navigate("/account/sign-in")
            let account = try await customer.post(
                "/account/web/sign-in",
                form: [("login", "anna@example.ch"), ("password", AccountHTTP.password), ("next", Self.tabbed)],
                follow: false)
            #expect(account.status == 303 && account.location == "/")

            var rider = WebBrowser(client: client)
            _ = try await rider.get("/rides")
            let code = try await rider.post(
                "/rides/sign-in", form: [("phone", "+41 79 555 12 34"), ("next", Self.tabbed)], follow: false)
            #expect(code.status == 303 && code.location == "/rides/sign-in/code?next=%2F")

            var desk = WebBrowser(client: client)
            _ = try await desk.get("/ops/sign-in")
            let ops = try await desk.post(
                "/ops/sign-in", form: [("token", Self.adminToken), ("next", Self.tabbed)], follow: false)
            #expect(ops.status == 303 && ops.location == "/")
        }
    }
}
