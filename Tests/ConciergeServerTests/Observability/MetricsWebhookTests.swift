import ConciergeCore
import ConciergeModels
import ConciergeTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import ConciergeServer

/// Webhook deliveries by what became of them, and a payment outcome counted once however often
/// the provider repeats it.
@Suite struct MetricsWebhookTests {
    @Test func mollieDeliveriesAreCountedByResultAndAPaymentIsPaidOnce() async throws {
        let app = try await TestApp.withMetrics()
        let mollie = PaymentWebhookTests.FakeProvider(name: "mollie")
        try await app.runWithWorker(payments: mollie) { client, _ in
            let (_, paymentID, _) = try await PaymentWebhookTests.bookOne(client, app: app)
            #expect(try await client.mollieWebhook(id: paymentID).status == .ok)
            mollie.set(paymentID, .paid)
            #expect(try await client.mollieWebhook(id: paymentID).status == .ok)
            #expect(try await client.mollieWebhook(id: paymentID).status == .ok)
            #expect(try await client.mollieWebhook(id: "tr_unknown123").status == .ok)
            #expect(try await client.mollieWebhook(id: "not-a-payment").status == .badRequest)

            let scrape = try await client.scrape()
            #expect(
                scrape.value("concierge_webhook_deliveries_total", ["provider": "mollie", "result": "applied"]) == 3)
            #expect(
                scrape.value("concierge_webhook_deliveries_total", ["provider": "mollie", "result": "unknown"]) == 1)
            #expect(
                scrape.value("concierge_webhook_deliveries_total", ["provider": "mollie", "result": "rejected"]) == 1)
            #expect(scrape.value("concierge_payments_total", ["provider": "mollie", "outcome": "paid"]) == 1)
            #expect(scrape.value("concierge_payments_total", ["provider": "mollie"]) == 1)
            #expect(scrape.value("concierge_bookings", ["vertical": "rides", "state": "confirmed"]) == 1)
        }
    }

    @Test func aPaymentCompletedAfterCancellingCountsItsRefundOnce() async throws {
        let app = try await TestApp.withMetrics()
        let mollie = PaymentWebhookTests.FakeProvider(name: "mollie")
        try await app.runWithWorker(payments: mollie) { client, _ in
            let (reference, paymentID, token) = try await PaymentWebhookTests.bookOne(client, app: app)
            #expect(try await client.send(.post, "/rides/bookings/\(reference)/cancel", token: token).status == .ok)
            mollie.set(paymentID, .paid)
            #expect(try await client.mollieWebhook(id: paymentID).status == .ok)
            #expect(try await client.mollieWebhook(id: paymentID).status == .ok)
            let scrape = try await client.scrape()
            #expect(scrape.value("concierge_payments_total", ["provider": "mollie", "outcome": "refunded"]) == 1)
            #expect(scrape.value("concierge_bookings", ["vertical": "rides", "state": "cancelled"]) == 1)
        }
    }
}
