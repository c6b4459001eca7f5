import ConciergeTestSupport
import Foundation
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// Named operators and the audit log (issue 26 item 10, review 2026-11-27 finding 10): the admin
/// token adds the first operator and then no longer signs in to `/ops`; an operator signs in by
/// name and password, acts, and `/ops/audit` says who did what; an `/ops` session opens no
/// customer API or page.
@Suite struct OperatorAuditPagesTests {
    static let adminToken = "operator-audit-admin-token-0123456789"
    static let password = "a long operator passphrase"
    static let environment = [
        "CONCIERGE_ADMIN_TOKEN": adminToken, "CONCIERGE_BCRYPT_COST": "4", "CONCIERGE_TRUST_PROXY": "true",
    ]

    @Test(arguments: TestEngine.all)
    func aNamedOperatorSignsInMovesARideAndTheAuditPageSaysWhoDidWhat(engine: TestEngine) async throws {
        let app = try await TestApp.make(engine: engine, environment: Self.environment)
        try await app.run { client in
            var customer = try await RidesPagesTests.signedIn(client)
            let (reference, _) = try await RidesPagesTests.bookAndPay(&customer)
            #expect(try await Self.addOperator("Alice", client).status == .created)

            var alice = try await Self.signedIn("alice", client)
            _ = try await alice.get("/ops/rides/\(reference)")
            let assigned = try await alice.post(
                "/ops/rides/\(reference)/status",
                form: [
                    ("status", "driver_assigned"), ("driver_name", "Marco Rossi"), ("driver_phone", "+41791112233"),
                    ("driver_vehicle", "Mercedes S"), ("driver_plate", "ZH 123"),
                ])
            #expect(assigned.contains("The ride is now: Driver assigned."))
            // A refused step writes nothing else, so its entry stands alone, saying why.
            let skipped = try await alice.post("/ops/rides/\(reference)/status", form: [("status", "completed")])
            #expect(skipped.status == 409)

            let index = try await alice.get("/ops")
            #expect(index.contains(#"<a href="/ops/audit">Audit log</a>"#))
            let audit = try await alice.get("/ops/audit")
            #expect(audit.status == 200 && audit.contains("<h1>Audit log</h1>"))
            let rows = Self.rows(audit)
            #expect(rows.count == 4)
            // Newest first: the refused step, the assignment, the sign-in, the adding.
            #expect(rows.first?.contains("<th scope=\"row\">alice</th>") == true)
            #expect(
                rows.first?.contains("Moved a ride") == true
                    && rows.first?.contains("refused: invalid_transition") == true)
            #expect(rows.dropFirst().first?.contains("<td>\(reference)</td><td>to driver_assigned</td>") == true)
            #expect(rows.dropFirst(2).first?.contains("Signed in") == true)
            #expect(rows.last?.contains("<th scope=\"row\">admin token</th>") == true)
            #expect(rows.last?.contains("Added an operator") == true && rows.last?.contains("<td>alice</td>") == true)
            #expect(!audit.contains("Marco Rossi"))  // the driver is no business of the log

            _ = try await alice.get("/ops")
            #expect(try await alice.post("/ops/sign-out", form: [], follow: false).status == 303)
            var again = try await Self.signedIn("alice", client)
            let german = try await again.get("/ops/audit?lang=de")
            #expect(german.contains("<h1>Protokoll</h1>") && german.contains("Abgemeldet"))
        }
    }

    @Test func theAdminTokenSignsInOnlyUntilTheFirstOperatorExists() async throws {
        let app = try await TestApp.make(engine: .sqlite, environment: Self.environment)
        try await app.run { client in
            var early = WebBrowser(client: client)
            let form = try await early.get("/ops/sign-in")
            #expect(form.contains(#"name="token""#) && !form.contains(#"name="password""#))
            let opened = try await early.post("/ops/sign-in", form: [("token", Self.adminToken), ("next", "/ops")])
            #expect(opened.status == 200 && opened.contains("<h1>Operations</h1>"))

            #expect(try await Self.addOperator("bob", client).status == .created)
            #expect(try await Self.addOperator("BOB", client).status == .conflict)

            // The session the token opened before is no operator's any more.
            let before = try await early.get("/ops", follow: false)
            #expect(before.status == 303 && before.location?.hasPrefix("/ops/sign-in") == true)
            var late = WebBrowser(client: client)
            let named = try await late.get("/ops/sign-in")
            #expect(named.contains(#"name="name""#) && named.contains(#"name="password""#))
            #expect(!named.contains(#"name="token""#))
            let refused = try await late.post("/ops/sign-in", form: [("token", Self.adminToken), ("next", "/ops")])
            #expect(refused.status == 401)
            #expect(late.cookies["concierge_ops"]?.isEmpty ?? true)
            // The admin API still takes the token.
            #expect(try await Self.addOperator("carol", client).status == .created)
        }
    }

    @Test func aWrongPasswordIsRefusedAndOperatorSignInsAreThrottled() async throws {
        var environment = Self.environment
        environment["CONCIERGE_SIGNIN_PER_ACCOUNT"] = "3"
        let app = try await TestApp.make(engine: .sqlite, environment: environment)
        try await app.run { client in
            #expect(try await Self.addOperator("dora", client).status == .created)
            var guesser = WebBrowser(client: client)
            _ = try await guesser.get("/ops/sign-in")
            for guess in ["wrong password one", "wrong password two", "wrong password three"] {
                let refused = try await guesser.post(
                    "/ops/sign-in", form: [("name", "dora"), ("password", guess), ("next", "/ops")])
                #expect(refused.status == 401 && refused.contains("That name and password do not match an operator."))
            }
            let unknown = try await guesser.post(
                "/ops/sign-in", form: [("name", "nobody"), ("password", Self.password), ("next", "/ops")])
            #expect(unknown.status == 401)
            // The fourth try for dora within the window is refused even with the right password (an
            // unknown name counts under its own).
            let throttled = try await guesser.post(
                "/ops/sign-in", form: [("name", "dora"), ("password", Self.password), ("next", "/ops")])
            #expect(throttled.status == 429 && throttled.headers[.retryAfter] != nil)
            #expect(throttled.contains("Too many sign-in attempts."))
            #expect(guesser.cookies["concierge_ops"]?.isEmpty ?? true)
            app.clock.advance(by: 16 * 60)
            #expect(try await Self.signedIn("dora", client).cookies["concierge_ops"]?.isEmpty == false)
        }
    }

    @Test func anOpsSessionIsNoCustomerBearerNorCustomerCookie() async throws {
        let app = try await TestApp.make(engine: .sqlite, environment: Self.environment)
        try await app.run { client in
            #expect(try await Self.addOperator("erin", client).status == .created)
            let desk = try await Self.signedIn("erin", client)
            let token = try #require(desk.cookies["concierge_ops"])
            #expect(try await client.send(.get, "/account/export", token: token).status == .unauthorized)
            #expect(try await client.send(.get, "/account", token: token).status == .unauthorized)
            #expect(try await client.send(.get, "/commute/trips", token: token).status == .unauthorized)
            var browser = WebBrowser(client: client)
            browser.setCookie("concierge_session", token)
            let page = try await browser.get("/account", headers: [.accept: "text/html"], follow: false)
            #expect(page.status == 303 && page.location?.hasPrefix("/account/sign-in") == true)
        }
    }

    // MARK: Helpers

    static func addOperator(_ name: String, _ client: any TestClientProtocol) async throws -> TestResponse {
        try await client.send(
            .post, "/admin/operators", json: #"{"name": "\#(name)", "password": "\#(password)"}"#, token: adminToken)
    }

    static func signedIn(_ name: String, _ client: any TestClientProtocol) async throws -> WebBrowser {
        var desk = WebBrowser(client: client)
        _ = try await desk.get("/ops/sign-in")
        let index = try await desk.post(
            "/ops/sign-in", form: [("name", name), ("password", password), ("next", "/ops")])
        guard index.status == 200, index.contains("<h1>Operations</h1>") else {
            throw TestFailure("operator sign-in failed: \(index.status)")
        }
        return desk
    }

    /// The audit table's body rows, in page order.
    static func rows(_ page: WebPage) -> [String] {
        page.html.components(separatedBy: "<tr>").dropFirst(2).map { String($0.prefix { $0 != "\n" }) }
    }
}
