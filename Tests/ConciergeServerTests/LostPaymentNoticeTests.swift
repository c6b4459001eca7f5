import ConciergeCore
import ConciergeModels
import ConciergeTestSupport
import Foundation
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// A payment can succeed at the provider without the server hearing of it: the webhook is lost,
/// or the server dies between the checkout and its transition. Expiry asks the provider first,
/// so the money never sits on an expired booking.
@Suite struct LostPaymentNoticeTests {
    @Test func aPaymentNobodyToldUsAboutConfirmsTheBookingInsteadOfExpiringIt() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        let mollie = PaymentWebhookTests.FakeProvider(name: "mollie")
        try await app.runWithWorker(payments: mollie) { client, worker in
            let (reference, paymentID, token) = try await PaymentWebhookTests.bookOne(client, app: app)
            mollie.set(paymentID, .paid)  // No webhook arrives.
            app.clock.advance(by: 1800)
            await worker.tick()
            #expect(try await client.bookingStatus(reference, token: token) == "confirmed")
            await worker.tick()
            #expect(try await client.emails(subjectContaining: reference).count == 1)
            #expect(mollie.refundKeys.isEmpty)
        }
    }

    @Test func aLostPaymentForAPickupNowTooSoonIsRefundedInsteadOfKept() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        let mollie = PaymentWebhookTests.FakeProvider(name: "mollie")
        try await app.runWithWorker(payments: mollie) { client, worker in
            let token = try await client.signedInCustomer()
            let booking = try await client.book(
                token: token, pickupAt: app.clock.now.addingTimeInterval(48 * 3600 + 600)
            ).decode(BookingResponse.self)
            let reference = try require(booking.quoteReference)
            let paymentID = String(try require(booking.checkoutUrl).split(separator: "/").last ?? "")
            mollie.set(paymentID, .paid)
            app.clock.advance(by: 1800)
            await worker.tick()
            #expect(try await client.bookingStatus(reference, token: token) == "refunded")
            #expect(mollie.refundKeys.count == 1)
        }
    }

    @Test func anUnpaidBookingStillExpiresWhenTheProviderCannotBeAsked() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        let mollie = PaymentWebhookTests.FakeProvider(name: "mollie")
        try await app.runWithWorker(payments: mollie) { client, worker in
            let (reference, _, token) = try await PaymentWebhookTests.bookOne(client, app: app)
            mollie.setDown(true)
            app.clock.advance(by: 1800)
            await worker.tick()
            #expect(try await client.bookingStatus(reference, token: token) == "expired")
        }
    }
}
