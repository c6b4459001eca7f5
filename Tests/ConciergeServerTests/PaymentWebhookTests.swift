import ConciergeCore
import ConciergeModels
import ConciergeTestSupport
import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import ConciergeServer

/// Provider webhooks through the HTTP surface, with a provider double that keeps payments in
/// memory (the real adapters are tested against recorded responses in ConciergeProvidersTests).
@Suite struct PaymentWebhookTests {
    final class FakeProvider: PaymentProvider, @unchecked Sendable {
        let name: String
        private let lock = NSLock()
        private var statuses: [String: PaymentStatus] = [:]
        private var amounts: [String: Int] = [:]
        private var redirects: [String: String] = [:]
        private var refunds: [String] = []
        private var refundAmounts: [String: Int] = [:]
        private var down = false
        private var refuseCreate = false
        private var refuseRefunds = false
        private var fetches = 0

        init(name: String) { self.name = name }

        func createPayment(_ request: PaymentRequest) async throws -> CreatedPayment {
            if lock.withLock({ refuseCreate }) {
                throw ConciergeError(
                    .unavailable(retryAfterSeconds: nil), code: "payments_unavailable", message: "Payments are down.")
            }
            let id = "tr_\(UUID().uuidString.prefix(8))"
            lock.withLock {
                statuses[id] = .open
                amounts[id] = request.amountCents
                redirects[id] = request.redirectURL
            }
            return CreatedPayment(id: id, checkoutURL: "https://checkout.example/\(id)", status: .open)
        }

        func fetchPayment(id: String) async throws -> PaymentSnapshot {
            try lock.withLock {
                fetches += 1
                if down {
                    throw ConciergeError(
                        .unavailable(retryAfterSeconds: nil), code: "payments_unavailable", message: "down")
                }
                guard let status = statuses[id] else {
                    throw ConciergeError(.upstreamFailed, code: "payment_not_found", message: "no such payment")
                }
                // What the provider has given back: the sum of its refunds, never more than paid.
                let refunded = min(
                    amounts[id] ?? 0,
                    refunds.filter { $0.hasSuffix("@" + id) }.reduce(0) { $0 + (refundAmounts[$1] ?? 0) })
                return PaymentSnapshot(
                    id: id, status: status, amountCents: amounts[id] ?? 0, refundedCents: refunded, metadata: [:])
            }
        }

        func cancelPayment(id: String) async throws {
            lock.withLock { if statuses[id] == .open { statuses[id] = .canceled } }
        }

        func refundPayment(id: String, amountCents: Int, currency: String, reason: String, idempotencyKey: String)
            async throws -> String
        {
            try lock.withLock {
                if refuseRefunds {
                    throw ConciergeError(
                        .upstreamFailed, code: "refund_refused", message: "This method has no refunds.")
                }
                if !refunds.contains(idempotencyKey + "@" + id) {
                    refunds.append(idempotencyKey + "@" + id)
                    refundAmounts[idempotencyKey + "@" + id] = amountCents
                }
            }
            return "re_\(idempotencyKey)"
        }

        func set(_ id: String, _ status: PaymentStatus) { lock.withLock { statuses[id] = status } }
        func setDown(_ value: Bool) { lock.withLock { down = value } }
        func setRefuseCreate(_ value: Bool) { lock.withLock { refuseCreate = value } }
        var refundKeys: [String] { lock.withLock { refunds.map { String($0.prefix { $0 != "@" }) } } }
        var fetchCount: Int { lock.withLock { fetches } }
        func setAmount(_ id: String, _ cents: Int) { lock.withLock { amounts[id] = cents } }
        func setRefuseRefunds(_ value: Bool) { lock.withLock { refuseRefunds = value } }
        /// Where the checkout sends the customer back: the return page with the booking's secret.
        func returnPath(_ id: String) -> String? {
            lock.withLock { redirects[id] }.flatMap { URL(string: $0) }.map { "\($0.path)?\($0.query ?? "")" }
        }
    }

    static func bookOne(_ client: any TestClientProtocol, app: TestApp) async throws -> (
        reference: String, paymentID: String, token: String
    ) {
        let token = try await client.signedInCustomer()
        let booking = try await client.book(token: token, pickupAt: app.clock.now.addingTimeInterval(3 * 86_400))
            .decode(BookingResponse.self)
        let paymentID = String(try require(booking.checkoutUrl).split(separator: "/").last ?? "")
        return (try require(booking.quoteReference), paymentID, token)
    }

    func mollieWebhook(_ client: any TestClientProtocol, id: String) async throws -> TestResponse {
        try await client.execute(
            uri: "/payments/mollie/webhook", method: .post,
            headers: [.contentType: "application/x-www-form-urlencoded"],
            body: ByteBuffer(string: "id=\(id)"))
    }

    @Test func mollieWebhookFetchesThePaymentAndConfirmsOnceHoweverOftenItComes() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        let mollie = FakeProvider(name: "mollie")
        try await app.runWithWorker(payments: mollie) { client, worker in
            let (reference, paymentID, token) = try await Self.bookOne(client, app: app)
            #expect(try await mollieWebhook(client, id: paymentID).status == .ok)
            #expect(try await client.bookingStatus(reference, token: token) == "awaiting_payment")

            mollie.set(paymentID, .paid)
            let deliveries = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<6 { group.addTask { try await mollieWebhook(client, id: paymentID).status } }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }
            #expect(deliveries.allSatisfy { $0 == .ok })
            #expect(try await client.bookingStatus(reference, token: token) == "confirmed")
            await worker.tick()
            await worker.tick()
            #expect(try await client.emails(subjectContaining: reference).count == 1)
        }
    }

    @Test func mollieWebhookAnswers200ForUnknownIdsAnd503WhenMollieIsDown() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        let mollie = FakeProvider(name: "mollie")
        try await app.runWithWorker(payments: mollie) { client, _ in
            #expect(try await mollieWebhook(client, id: "tr_unknown").status == .ok)
            let (_, paymentID, _) = try await Self.bookOne(client, app: app)
            mollie.setDown(true)
            #expect(try await mollieWebhook(client, id: paymentID).status == .serviceUnavailable)
            let malformed = try await client.execute(
                uri: "/payments/mollie/webhook", method: .post,
                headers: [.contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: "nothing=here"))
            #expect(malformed.status == .badRequest)
        }
    }

    static let stripeSecret = "whsec_test_secret"

    func stripeEvent(_ client: any TestClientProtocol, eventID: String, sessionID: String, secret: String, at: Date)
        async throws -> TestResponse
    {
        let payload =
            #"{"id":"\#(eventID)","type":"checkout.session.completed","data":{"object":{"id":"\#(sessionID)","object":"checkout.session","payment_status":"paid"}}}"#
        let timestamp = Int(at.timeIntervalSince1970)
        let mac = HMAC<SHA256>.authenticationCode(
            for: Data("\(timestamp).\(payload)".utf8), using: SymmetricKey(data: Data(secret.utf8)))
        let signature = mac.map { String(format: "%02x", $0) }.joined()
        return try await client.execute(
            uri: "/payments/stripe/webhook", method: .post,
            headers: [.contentType: "application/json", .init("Stripe-Signature")!: "t=\(timestamp),v1=\(signature)"],
            body: ByteBuffer(string: payload))
    }

    @Test func stripeWebhookVerifiesTheSignatureAndAppliesEachEventOnce() async throws {
        let app = try await TestApp.make(
            engine: .sqlite,
            environment: [
                "CONCIERGE_PAYMENT_PROVIDER": "stripe", "STRIPE_SECRET_KEY": "sk_test_123",
                "STRIPE_WEBHOOK_SECRET": "whsec_old, \(Self.stripeSecret)",
            ])
        let stripe = FakeProvider(name: "stripe")
        try await app.runWithWorker(payments: stripe) { client, worker in
            let (reference, sessionID, token) = try await Self.bookOne(client, app: app)
            stripe.set(sessionID, .paid)

            let forged = try await stripeEvent(
                client, eventID: "evt_1", sessionID: sessionID, secret: "whsec_wrong", at: app.clock.now)
            #expect(forged.status == .badRequest)
            #expect(forged.errorBody?.code == "invalid_signature")
            let stale = try await stripeEvent(
                client, eventID: "evt_1", sessionID: sessionID, secret: Self.stripeSecret,
                at: app.clock.now.addingTimeInterval(-301))
            #expect(stale.status == .badRequest)
            #expect(try await client.bookingStatus(reference, token: token) == "awaiting_payment")

            // Signed with the second (rotated-in) secret.
            let good = try await stripeEvent(
                client, eventID: "evt_1", sessionID: sessionID, secret: Self.stripeSecret, at: app.clock.now)
            #expect(good.status == .ok)
            #expect(try await client.bookingStatus(reference, token: token) == "confirmed")
            let replay = try await stripeEvent(
                client, eventID: "evt_1", sessionID: sessionID, secret: Self.stripeSecret, at: app.clock.now)
            #expect(replay.status == .ok)
            await worker.tick()
            #expect(try await client.emails(subjectContaining: reference).count == 1)
        }
    }

    @Test func theReturnPageAsksTheProviderWhileTheBookingWaits() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        let mollie = FakeProvider(name: "mollie")
        try await app.runWithWorker(payments: mollie) { client, _ in
            let (reference, paymentID, token) = try await Self.bookOne(client, app: app)
            let returnPath = try require(mollie.returnPath(paymentID))
            let waiting = try await client.send(.get, returnPath)
            #expect(String(buffer: waiting.body).contains("Waiting for payment"))
            // Paid at the provider; the webhook has not arrived yet.
            mollie.set(paymentID, .paid)
            let page = try await client.send(.get, returnPath)
            #expect(String(buffer: page.body).contains("Booking confirmed"))
            let status = try await client.bookingStatus(reference, token: token)
            #expect(status == "confirmed")
            let unknown = try await client.send(.get, "/rides/booking-confirmed?ref=VRM-0000")
            #expect(unknown.status == .notFound)
        }
    }

    @Test func whenThePaymentCannotBeCreatedNoBookingRemainsAndTheKeyIsFreeForTheRetry() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        let mollie = FakeProvider(name: "mollie")
        try await app.runWithWorker(payments: mollie) { client, _ in
            let token = try await client.signedInCustomer()
            let pickup = app.clock.now.addingTimeInterval(3 * 86_400)
            mollie.setRefuseCreate(true)
            let failed = try await client.book(token: token, pickupAt: pickup, key: "retry-me")
            #expect(failed.status == .serviceUnavailable)
            #expect(failed.errorBody?.code == "payments_unavailable")
            let none = try await client.send(.get, "/rides/bookings", token: token).decode(BookingListResponse.self)
            #expect(none.bookings.isEmpty)

            mollie.setRefuseCreate(false)
            let retried = try await client.book(token: token, pickupAt: pickup, key: "retry-me")
            #expect(retried.status == .ok)
            let one = try await client.send(.get, "/rides/bookings", token: token).decode(BookingListResponse.self)
            #expect(one.bookings.count == 1)
        }
    }
}
