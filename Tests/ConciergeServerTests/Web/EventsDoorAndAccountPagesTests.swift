import ConciergeTestSupport
import Foundation
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// The operator's door scanner and sales counts, and the pages the events account emails link
/// to (email confirmation, password reset), through HTTP in process.
@Suite struct EventsDoorAndAccountPagesTests {
    static let adminToken = "events-pages-admin-token-0123456789abcdef"

    /// A paid booking of two seats of `show`; answers each seat's typed ticket code.
    static func paidTickets(
        _ client: any TestClientProtocol, worker: MaintenanceService, show: String = "shw_demo_1",
        seats: [String] = ["stalls-D1", "stalls-D2"]
    ) async throws -> [String] {
        let token = try await client.eventsBuyer("anna@example.ch", worker: worker)
        var anna = WebBrowser.signedIn(client: client, token: token)
        _ = try await anna.get("/events/shows/\(show)")
        let order = try await anna.post(
            "/events/shows/\(show)/hold", form: [("mode", "seats")] + seats.map { ("seat", $0) })
        let pay = try #require(order.firstMatch(#"class="button primary pay" href="([^"]+)""#))
        _ = try await client.checkout(pay, outcome: "paid")
        return try await anna.get("/events/tickets").allMatches(#"class="ticket-code">([^<]+)<"#)
    }

    static func signedInOperator(_ client: any TestClientProtocol) async throws -> WebBrowser {
        var visitor = WebBrowser(client: client)
        _ = try await visitor.get("/ops/sign-in")
        _ = try await visitor.post("/ops/sign-in", form: [("token", adminToken), ("next", "/ops")])
        return visitor
    }

    @Test func theScannerAdmitsATicketOnceThenSaysItIsAlreadyCheckedIn() async throws {
        let app = try await EventsTestApp.make(.sqlite, ["CONCIERGE_ADMIN_TOKEN": Self.adminToken])
        try await app.runWithWorker { client, worker in
            let codes = try await Self.paidTickets(client, worker: worker)
            #expect(codes.count == 2)
            var signedOut = WebBrowser(client: client)
            #expect(
                try await signedOut.get("/ops/scanner", follow: false).location == "/ops/sign-in?next=%2Fops%2Fscanner")
            var door = try await Self.signedInOperator(client)
            let page = try await door.get("/ops/scanner")
            #expect(page.contains(#"<script src="/assets/events-scanner.js" defer></script>"#))
            #expect(page.contains(#"<label for="code">Ticket code</label>"#))
            let first = try await door.post(
                "/ops/scanner", form: [("show", "shw_demo_1"), ("gate", "north"), ("code", codes[0])])
            #expect(first.status == 200)
            #expect(first.contains(#"role="status" id="scan-answer"><p>Admitted: Stalls D1 (anna@example.ch).</p>"#))
            let again = try await door.post(
                "/ops/scanner", form: [("show", "shw_demo_1"), ("gate", "south"), ("code", codes[0])])
            #expect(again.contains(#"role="alert" id="scan-answer"><p>Already checked in: Stalls D1 was admitted at"#))
            let reload = try await door.get("/ops/scanner?show=shw_demo_1&gate=south")
            #expect(!reload.contains("scan-answer"))
            let nonsense = try await door.post(
                "/ops/scanner", form: [("show", "shw_demo_1"), ("gate", "north"), ("code", "not-a-ticket")])
            #expect(nonsense.contains("Invalid: this code is not a valid ticket. Do not admit."))
            let wrongShow = try await door.post(
                "/ops/scanner", form: [("show", "shw_demo_2"), ("gate", "north"), ("code", codes[1])])
            #expect(wrongShow.contains("Wrong show: this ticket is for another show."))
            let noShow = try await door.post("/ops/scanner", form: [("show", ""), ("code", codes[1])])
            #expect(noShow.status == 400)
            #expect(noShow.contains(#"id="show-error" role="alert">Choose this door&#39;s show"#))
        }
    }

    @Test func theSalesPageCountsSeatsSoldAndCheckedInPerShowWithBars() async throws {
        let app = try await EventsTestApp.make(.sqlite, ["CONCIERGE_ADMIN_TOKEN": Self.adminToken])
        try await app.runWithWorker { client, worker in
            let codes = try await Self.paidTickets(client, worker: worker)
            var door = try await Self.signedInOperator(client)
            _ = try await door.get("/ops/scanner")
            _ = try await door.post("/ops/scanner", form: [("show", "shw_demo_1"), ("code", codes[1])])
            let sales = try await door.get("/ops/events")
            #expect(sales.status == 200 && sales.contains("<h1>Sales and check-ins</h1>"))
            #expect(sales.count(#"<svg class="sales-chart""#) == 5)
            #expect(sales.contains(#"aria-label="2 of 336 seats sold, 0 held; 1 checked in""#))
            #expect(sales.contains(#"<td class="sold-count">2</td>"#))
            #expect(sales.contains(#"<td class="checked-in-count">1</td>"#))
            #expect(sales.contains(#"<rect class="door" x="0" y="13" width="50.0" height="9"/>"#))
            #expect(!sales.contains("style="))
        }
    }

    @Test func theEmailLinksConfirmTheAddressAndResetThePasswordOnAPage() async throws {
        let app = try await EventsTestApp.make(.sqlite)
        try await app.runWithWorker { client, worker in
            _ = try await client.eventsBuyer("dora@example.ch", worker: worker, verified: false)
            let token = try await client.eventsVerificationToken(to: "dora@example.ch", worker: worker)
            var dora = WebBrowser(client: client)
            let link = try await dora.get("/events/verify-email?token=\(token)&email=dora%40example.ch")
            #expect(link.contains(#"<button type="submit" class="primary">Confirm my email address</button>"#))
            let confirmed = try await dora.post("/events/verify-email", form: [("token", token)])
            #expect(confirmed.contains("Thank you, your email address is confirmed."))
            _ = try await dora.get("/events/verify-email?token=\(token)&email=dora%40example.ch")
            let reused = try await dora.post("/events/verify-email", form: [("token", token)])
            #expect(reused.status == 400 && reused.contains("This link has expired or was used already."))

            _ = try await dora.get("/events/reset-password")
            let sent = try await dora.post("/events/forgot-password", form: [("email", "dora@example.ch")])
            #expect(sent.contains("a link to choose a new password is on its way"))
            var reset: String?
            for _ in 0..<100 where reset == nil {
                await worker.tick()
                let mails = try await client.outboxMessages()
                reset =
                    mails.compactMap { $0["body"] as? String }.compactMap { body -> String? in
                        guard let range = body.range(of: "/events/reset-password?token=") else { return nil }
                        return String(body[range.upperBound...].prefix { $0 != "&" && !$0.isWhitespace })
                    }.last
            }
            let resetToken = try #require(reset)
            let form = try await dora.get("/events/reset-password?token=\(resetToken)&email=dora%40example.ch")
            #expect(form.contains(#"<label for="password">New password</label>"#))
            let weak = try await dora.post(
                "/events/reset-password", form: [("token", resetToken), ("password", "short")])
            #expect(weak.status == 400 && weak.contains(#"id="password-error" role="alert">"#))
            let changed = try await dora.post(
                "/events/reset-password", form: [("token", resetToken), ("password", "another long passphrase")])
            #expect(changed.contains("Your password is changed."))
            let signIn = try await client.send(
                .post, "/events/api/auth/signin",
                json: #"{"email": "dora@example.ch", "password": "another long passphrase"}"#)
            #expect(signIn.status == .ok)
        }
    }
}
