import ConciergeCore
import ConciergeModels
import ConciergeTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import ConciergeServer

/// The security review's payment findings (`security-2026-11.md` 4, 5, 9, 20, 21, 30), through
/// the HTTP surface with a provider double that keeps payments in memory.
@Suite struct PaymentHardeningTests {
    typealias FakeProvider = PaymentWebhookTests.FakeProvider

    func mollieWebhook(_ client: any TestClientProtocol, id: String) async throws -> TestResponse {
        try await client.execute(
            uri: "/payments/mollie/webhook", method: .post,
            headers: [.contentType: "application/x-www-form-urlencoded"], body: ByteBuffer(string: "id=\(id)"))
    }

    /// Finding 4: the customer cancels, the open checkout is paid anyway: the money goes back,
    /// the ledger records the refund and the customer is told.
    @Test(arguments: TestEngine.all)
    func aPaymentCompletedAfterCancellingIsRefundedRecordedAndTold(engine: TestEngine) async throws {
        let adminToken = String(repeating: "a", count: 32)
        let app = try await TestApp.make(engine: engine, environment: ["CONCIERGE_ADMIN_TOKEN": adminToken])
        let mollie = FakeProvider(name: "mollie")
        try await app.runWithWorker(payments: mollie) { client, worker in
            let (reference, paymentID, token) = try await PaymentWebhookTests.bookOne(client, app: app)
            let cancelled = try await client.send(.post, "/rides/bookings/\(reference)/cancel", token: token)
            #expect(cancelled.status == .ok)
            mollie.set(paymentID, .paid)
            #expect(try await mollieWebhook(client, id: paymentID).status == .ok)
            #expect(try await mollieWebhook(client, id: paymentID).status == .ok)
            #expect(try await client.bookingStatus(reference, token: token) == "cancelled")
            #expect(mollie.refundKeys.filter { $0.hasPrefix("cancelled-") }.count == 1)
            await worker.tick()
            #expect(try await client.emails(subjectContaining: reference).count == 1)
            let events = try await client.adminBooking(reference, adminToken: adminToken).events
            #expect(
                events.contains { $0.type == "refunded" && $0.detail.contains("paid after the booking was cancelled") })
        }
    }

    /// Finding 12: a cancellation moves the booking first and then refunds; a refund the
    /// provider refuses now is owed, and the worker pays it under the same key.
    @Test(arguments: TestEngine.all)
    func aCancellationMovesTheBookingFirstAndTheWorkerPaysARefundThatFailed(engine: TestEngine) async throws {
        let app = try await TestApp.make(engine: engine)
        let mollie = FakeProvider(name: "mollie")
        try await app.runWithWorker(payments: mollie) { client, worker in
            let (reference, paymentID, token) = try await PaymentWebhookTests.bookOne(client, app: app)
            mollie.set(paymentID, .paid)
            #expect(try await mollieWebhook(client, id: paymentID).status == .ok)
            #expect(try await client.bookingStatus(reference, token: token) == "confirmed")
            mollie.setRefuseRefunds(true)
            let cancelled = try await client.send(.post, "/rides/bookings/\(reference)/cancel", token: token)
            #expect(cancelled.status == .ok)
            #expect(try await client.bookingStatus(reference, token: token) == "cancelled")
            #expect(mollie.refundKeys.isEmpty)
            mollie.setRefuseRefunds(false)
            // The refund waits out its pause (30 s after a failure, kept in the database).
            app.clock.advance(by: 31)
            await worker.tick()
            #expect(mollie.refundKeys.count == 1 && mollie.refundKeys.first?.hasPrefix("cancel-") == true)
            await worker.tick()
            #expect(mollie.refundKeys.count == 1)
        }
    }

    /// Finding 30: a payment whose amount is not the booking's price never confirms the ride. It
    /// goes back in full, once; the booking's only payment is spent, so the platform's lifecycle
    /// ends the booking (cancelled) instead of leaving it waiting for a payment that cannot come.
    @Test func aPaymentOfAnotherAmountIsRefundedAndDoesNotConfirm() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        let mollie = FakeProvider(name: "mollie")
        try await app.runWithWorker(payments: mollie) { client, _ in
            let (reference, paymentID, token) = try await PaymentWebhookTests.bookOne(client, app: app)
            mollie.setAmount(paymentID, 100)
            mollie.set(paymentID, .paid)
            #expect(try await mollieWebhook(client, id: paymentID).status == .ok)
            #expect(try await mollieWebhook(client, id: paymentID).status == .ok)
            #expect(try await client.bookingStatus(reference, token: token) == "cancelled")
            #expect(mollie.refundKeys.count == 1 && mollie.refundKeys.first?.hasPrefix("mismatch-") == true)
        }
    }

    /// Finding 5: one lapsed booking whose settling fails (its late refund is refused) no longer
    /// stops the worker from expiring the others. The booking moves first with its refund owed
    /// (finding 12), and the refund worker pays it once the provider takes it, under one key.
    @Test func theExpiryWorkerGoesOnPastABookingThatFails() async throws {
        let adminToken = String(repeating: "a", count: 32)
        let app = try await TestApp.make(engine: .sqlite, environment: ["CONCIERGE_ADMIN_TOKEN": adminToken])
        let mollie = FakeProvider(name: "mollie")
        try await app.runWithWorker(payments: mollie) { client, worker in
            // The poison booking: paid at the provider after its pickup came too close, and the
            // refund the late-payment path asks for is refused.
            let (poison, poisonPayment, _) = try await PaymentWebhookTests.bookOne(client, app: app)
            let token = try await client.signedInCustomer(phone: "+41791110001")
            let later = try await client.book(token: token, pickupAt: app.clock.now.addingTimeInterval(3 * 86_400))
                .decode(BookingResponse.self)
            let reference = try require(later.quoteReference)
            mollie.set(poisonPayment, .paid)
            mollie.setRefuseRefunds(true)
            app.clock.advance(by: 2 * 86_400 + 3600)
            await worker.tick()
            // The admin lists read without settling anything: what they show is the worker's doing.
            func listed(_ status: String) async throws -> String {
                String(buffer: try await client.send(.get, "/admin/bookings?status=\(status)", token: adminToken).body)
            }
            #expect(try await !listed("awaiting_payment").contains(poison))
            #expect(try await listed("refunded").contains(poison))
            #expect(try await listed("expired").contains(reference))
            #expect(mollie.refundKeys.isEmpty)
            mollie.setRefuseRefunds(false)
            app.clock.advance(by: 3600)
            await worker.tick()
            await worker.tick()
            #expect(mollie.refundKeys.count == 1 && mollie.refundKeys.first?.hasPrefix("late-") == true)
        }
    }

    /// Finding 9: the webhook is unauthenticated; ids we never issued are not fetched from
    /// Mollie, and ids that are not Mollie's format are refused.
    @Test func theMollieWebhookFetchesOnlyPaymentsInTheLedger() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        let mollie = FakeProvider(name: "mollie")
        try await app.runWithWorker(payments: mollie) { client, _ in
            for _ in 0..<5 {
                #expect(try await mollieWebhook(client, id: "tr_NotOurs\(Int.random(in: 0..<1000))").status == .ok)
            }
            #expect(mollie.fetchCount == 0)
            #expect(try await mollieWebhook(client, id: "tr_x/../y").status == .badRequest)
            let (_, paymentID, _) = try await PaymentWebhookTests.bookOne(client, app: app)
            #expect(try await mollieWebhook(client, id: paymentID).status == .ok)
            #expect(mollie.fetchCount == 1)
        }
    }

    /// Findings 20 and 21: a guessed return link and a list of lapsed bookings set off no
    /// provider call; the list still shows the lapsed booking as expired.
    @Test func readingSetsOffNoProviderCallsForStrangersOrLists() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        let mollie = FakeProvider(name: "mollie")
        try await app.runWithWorker(payments: mollie) { client, _ in
            let (reference, _, token) = try await PaymentWebhookTests.bookOne(client, app: app)
            app.clock.advance(by: 3600)
            let guessed = try await client.send(.get, "/rides/booking-confirmed?ref=\(reference)&t=guess")
            #expect(guessed.status == .notFound)
            let listed = try await client.send(.get, "/rides/bookings", token: token)
            #expect(String(buffer: listed.body).contains("expired"))
            #expect(mollie.fetchCount == 0)
        }
    }

    /// Finding 14: a NUL is refused before it reaches a database (SQLite cut text at it,
    /// PostgreSQL answered 500), and control characters are refused in emails and descriptions.
    @Test(arguments: TestEngine.all)
    func nulAndControlCharactersAreRefusedWithA400(engine: TestEngine) async throws {
        let app = try await TestApp.make(engine: engine)
        try await app.run { client in
            let token = try await client.signedInCustomer()
            for email in [#"a\u0000b@example.com"#, #"a\u0007b@example.com"#, "a,b@example.com"] {
                let response = try await client.send(
                    .patch, "/rides/me", json: #"{"email": "\#(email)"}"#, token: token)
                #expect(response.status == .badRequest, "\(email)")
            }
            let me = try await client.send(.get, "/rides/me", token: token)
            #expect(String(buffer: me.body).contains("anna@example.ch"))
            let booking = """
                {"pickup": {"placeId": "gz_iata_ZRH", "description": "Gate\\u0001"},
                 "destination": {"placeId": "gz_geo_2657896", "description": "Home"},
                 "dateTime": "\(WireDate.string(from: app.clock.now.addingTimeInterval(3 * 86_400)))",
                 "vehicleClass": "business"}
                """
            let refused = try await client.send(.post, "/rides/app-book", json: booking, token: token)
            #expect(refused.status == .badRequest)
            let escapedBackslash = try await client.send(
                .patch, "/rides/me", json: #"{"name": "Anna \\u0000"}"#, token: token)
            #expect(escapedBackslash.status != .internalServerError)
        }
    }
}
