import ConciergeCore
import ConciergeStore
import ConciergeTestSupport
import Foundation
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
