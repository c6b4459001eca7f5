import ConciergeCore
import ConciergeStore
import ConciergeTestSupport
import Foundation
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// `/ops/orders`: every vertical's orders with their payments and refunds, filtered and paged,
/// for operators only.
@Suite struct OperationsOrdersPagesTests {
    static let adminToken = HomeAndOperationsPagesTests.adminToken

    @Test func anOperatorSeesOrdersOfTwoVerticalsWithTheirLedger() async throws {
        let app = try await TestApp.make(engine: .sqlite, environment: ["CONCIERGE_ADMIN_TOKEN": Self.adminToken])
        try await app.run { client in
            let database = try await app.configuration.storage.open(logger: TestApp.quiet)
            let now = app.clock.now
            try await Self.order(
                "ord_ride", vertical: "rides", reference: "R-100200", cents: 12_500, state: "cancelled", at: now,
                refundedCents: 12_500, in: database)
            try await Self.order(
                "ord_seats", vertical: "events", reference: "E-300400", cents: 17_000, state: "confirmed",
                at: now.addingTimeInterval(60), refundedCents: 0, in: database)
            try await database.close()

            var browser = WebBrowser(client: client)
            let signIn = try await browser.get("/ops/orders")
            #expect(signIn.contains(#"action="/ops/sign-in""#))
            let page = try await browser.post(
                "/ops/sign-in", form: [("token", Self.adminToken), ("next", "/ops/orders")])
            #expect(page.status == 200 && page.contains("<h1>Orders and refunds</h1>"))
            let seats = try #require(page.html.range(of: "E-300400"))
            let ride = try #require(page.html.range(of: "R-100200"))
            #expect(seats.lowerBound < ride.lowerBound)  // newest first
            #expect(page.contains("CHF 125.00") && page.contains("CHF 170.00"))
            #expect(page.contains("sandbox sbx_ord_ride: paid, CHF 125.00 (refunded CHF 125.00)"))
            #expect(page.contains("refund CHF 125.00"))
            #expect(page.contains(">Rides<") && page.contains(">Events<"))

            let events = try await browser.get("/ops/orders?vertical=events")
            #expect(events.contains("E-300400") && !events.contains("R-100200"))
            let cancelled = try await browser.get("/ops/orders?state=cancelled")
            #expect(cancelled.contains("R-100200") && !cancelled.contains("E-300400"))
            let beyond = try await browser.get("/ops/orders?page=2")
            #expect(beyond.contains("No orders match") && beyond.contains("Newer orders"))
        }
    }

    @Test func anOperatorCancelsAPaidRideAndAPaidSeatOrderAndTheLedgerShowsTheRefunds() async throws {
        let app = try await EventsTestApp.make(.sqlite, ["CONCIERGE_ADMIN_TOKEN": Self.adminToken])
        try await app.runWithWorker { client, worker in
            var customer = try await RidesPagesTests.signedIn(client)
            let (ride, _) = try await RidesPagesTests.bookAndPay(&customer)
            _ = try await EventsDoorAndAccountPagesTests.paidTickets(client, worker: worker)
            var desk = try await Self.signedInOperator(client)
            let list = try await desk.get("/ops/orders")
            #expect(list.contains(#"<th scope="col">Actions</th>"#))
            let rideCancel = try #require(Self.cancelLink(in: list, reference: ride))
            let seatsPage = try await desk.get("/ops/orders?vertical=events")
            let seatsCancel = try #require(seatsPage.firstMatch(#"href="(/ops/orders/[^"]+/cancel)""#))

            let confirm = try await desk.get(rideCancel)
            #expect(confirm.status == 200 && confirm.contains("<h1>Cancel order \(ride) for its customer</h1>"))
            #expect(
                confirm.contains(#"name="_csrf""#) && confirm.contains(#"<form method="post" action="\#(rideCancel)">"#)
            )
            let cancelled = try await desk.post(rideCancel, form: [])
            #expect(cancelled.status == 200 && cancelled.contains("<h1>Orders and refunds</h1>"))
            #expect(
                cancelled.contains(
                    #"role="status"><p>Order \#(ride) is cancelled for its customer; its refund is in the ledger below."#
                ))
            let rideRow = try #require(Self.row(in: cancelled, reference: ride))
            #expect(rideRow.contains("<td>cancelled</td>") && rideRow.contains("refund CHF "))
            #expect(!rideRow.contains("Cancel and refund"))

            _ = try await desk.get(seatsCancel)
            let seats = try await desk.post(seatsCancel, form: [])
            #expect(seats.contains(#"role="status"><p>Order "#))
            let events = try await desk.get("/ops/orders?vertical=events")
            #expect(events.contains("<td>cancelled</td>") && events.contains("refund CHF "))
            #expect(!events.contains(#"/cancel""#))
        }
    }

    @Test func anOperatorCancelsAPrepaidStayWithTheGuestsRefund() async throws {
        let hotel = FileManager.default.temporaryDirectory.appendingPathComponent("ops-stays-\(UUID().uuidString).json")
        try """
        {"name": "Prepaid Inn", "roomTypes": [{"id": 2, "type": "Double", "capacity": 2, "rooms": 2,
          "baseRateCents": 18000, "paymentPolicy": "prepay"}]}
        """.write(to: hotel, atomically: true, encoding: .utf8)
        let app = try await TestApp.make(
            engine: .sqlite,
            environment: StaysFixtures.environment.merging([
                "CONCIERGE_STAYS_HOTEL_PATH": hotel.path, "CONCIERGE_ADMIN_TOKEN": Self.adminToken,
            ]) { $1 })
        try await app.runWithWorker { client, _ in
            let anna = try await client.staysSignUp("anna")
            let stay = try await StaysPrepay.reserveAndPay(client, token: anna.token)
            let reference = try #require(stay.payment?.reference)
            var desk = try await Self.signedInOperator(client)
            let link = try #require(Self.cancelLink(in: try await desk.get("/ops/orders"), reference: reference))
            _ = try await desk.get(link)
            let cancelled = try await desk.post(link, form: [])
            #expect(cancelled.contains(#"role="status"><p>Order \#(reference) is cancelled for its customer"#))
            let row = try #require(Self.row(in: cancelled, reference: reference))
            #expect(row.contains("<td>cancelled</td>") && row.contains("refund CHF "))
        }
    }

    @Test func aRefusedCancellationIsSaidAsASentenceOnTheConfirmPage() async throws {
        let app = try await TestApp.make(engine: .sqlite, environment: ["CONCIERGE_ADMIN_TOKEN": Self.adminToken])
        try await app.run { client in
            var customer = try await RidesPagesTests.signedIn(client)
            let (ride, _) = try await RidesPagesTests.bookAndPay(&customer)
            app.clock.advance(by: 2.5 * 86_400)  // within the 24 hours before pickup
            var desk = try await Self.signedInOperator(client)
            let link = try #require(Self.cancelLink(in: try await desk.get("/ops/orders"), reference: ride))
            _ = try await desk.get(link)
            let refused = try await desk.post(link, form: [])
            #expect(refused.status == 409)
            #expect(
                refused.contains(
                    #"<div class="errors" role="alert" id="cancel-error"><p>The order was not cancelled. Rides can be cancelled free of charge until 24 hours"#
                ))
            let row = try #require(Self.row(in: try await desk.get("/ops/orders"), reference: ride))
            #expect(row.contains("<td>confirmed</td>") && !row.contains("refund CHF"))
        }
    }

    @Test func onlyAnOperatorWithTheFormsCSRFFieldCancels() async throws {
        let app = try await TestApp.make(engine: .sqlite, environment: ["CONCIERGE_ADMIN_TOKEN": Self.adminToken])
        try await app.run { client in
            var customer = try await RidesPagesTests.signedIn(client)
            let (ride, _) = try await RidesPagesTests.bookAndPay(&customer)
            var desk = try await Self.signedInOperator(client)
            let link = try #require(Self.cancelLink(in: try await desk.get("/ops/orders"), reference: ride))

            var visitor = WebBrowser(client: client)
            let page = try await visitor.get(link, follow: false)
            #expect(page.status == 303 && page.location?.hasPrefix("/ops/sign-in?next=") == true)
            let post = try await visitor.post(link, form: [], csrf: false, follow: false)
            #expect(post.status == 303 && post.location?.hasPrefix("/ops/sign-in?next=") == true)
            // The customer's own session is no operator's either.
            #expect(try await customer.get(link, follow: false).status == 303)

            _ = try await desk.get(link)
            let forged = try await desk.post(link, form: [], csrf: false)
            #expect(forged.status == 403)
            let row = try #require(Self.row(in: try await desk.get("/ops/orders"), reference: ride))
            #expect(row.contains("<td>confirmed</td>") && row.contains("Cancel and refund"))
            #expect(try await desk.get("/ops/orders/ord_none/cancel").status == 404)
        }
    }

    // MARK: Helpers

    static func signedInOperator(_ client: any TestClientProtocol) async throws -> WebBrowser {
        var desk = WebBrowser(client: client)
        _ = try await desk.get("/ops/sign-in")
        _ = try await desk.post("/ops/sign-in", form: [("token", adminToken), ("next", "/ops")])
        return desk
    }

    /// The "Cancel and refund" link of the order `reference` on an orders page.
    static func cancelLink(in page: WebPage, reference: String) -> String? {
        row(in: page, reference: reference).flatMap {
            WebPage(status: page.status, headers: page.headers, html: $0).firstMatch(
                #"href="(/ops/orders/[^"]+/cancel)""#)
        }
    }

    /// The table row of the order `reference`.
    static func row(in page: WebPage, reference: String) -> String? {
        guard let start = page.html.range(of: #"<tr data-reference="\#(reference)">"#),
            let end = page.html.range(of: "</tr>", range: start.upperBound..<page.html.endIndex)
        else { return nil }
        return String(page.html[start.lowerBound..<end.upperBound])
    }

    /// An order with a paid sandbox payment, refunded by `refundedCents` when that is not 0.
    static func order(
        _ id: String, vertical: String, reference: String, cents: Int, state: String, at now: Date,
        refundedCents: Int, in database: any SQLDatabase
    ) async throws {
        try await database.transaction(lockKeys: []) { db in
            _ = try await SQLOrderStore.insert(
                Order(
                    id: id, vertical: vertical, accountID: nil,
                    reference: OrderReference(code: reference, secret: "secret-\(id)"), amountCents: cents,
                    currency: "CHF", state: state,
                    lines: [OrderLine(kind: "item", description: reference, quantity: 1, unitAmountCents: cents)],
                    createdAt: now),
                event: OrderEvent(orderID: id, at: now, type: "created", actor: "test", detail: ""), in: db)
            try await SQLPaymentLedger.insert(
                PaymentRecord(
                    id: "pay_\(id)", provider: "sandbox", providerPaymentID: "sbx_\(id)", ownerVertical: vertical,
                    orderID: id, amountCents: cents, currency: "CHF", status: .paid, refundedCents: 0,
                    checkoutURL: "", description: reference, redirectURL: "", metadata: [:],
                    expiresAt: now.addingTimeInterval(900), createdAt: now), in: db)
            if refundedCents > 0 {
                _ = try await SQLPaymentLedger.recordRefund(
                    RefundRecord(
                        id: "ref_\(id)", paymentID: "pay_\(id)", providerRefundID: "sbx_ref_\(id)",
                        amountCents: refundedCents, currency: "CHF", reason: "cancelled by the customer",
                        createdAt: now), in: db)
            }
        }
    }
}
