import ConciergeCore
import ConciergeModels
import ConciergeTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// Two server instances on one PostgreSQL database, as behind a load balancer, sharing one
/// payment provider account: whatever races between them — provider webhooks, return-page
/// visits, retried bookings, workers — changes a booking once, notifies once and pays once.
@Suite(.enabled(if: TestEngine.all.contains(.postgres)))
struct TwoInstancesOnPostgresTests {
    static let adminToken = String(repeating: "a", count: 40)
    static let day: TimeInterval = 86_400

    /// Two instances on one fresh PostgreSQL database, with the admin API on (to read event logs).
    static func pair(environment: [String: String] = [:]) async throws -> (TestApp, TestApp) {
        var variables = environment
        variables["CONCIERGE_ADMIN_TOKEN"] = adminToken
        let first = try await TestApp.make(engine: .postgres, environment: variables)
        return (first, try first.sibling())
    }

    /// One finished request of a race.
    struct Outcome: Sendable {
        enum Kind: Sendable { case webhook, returnPage, booking }
        let kind: Kind
        let status: HTTPResponse.Status
        let body: String
        let code: String?

        init(_ kind: Kind, _ response: TestResponse) {
            self.kind = kind
            self.status = response.status
            self.body = String(buffer: response.body)
            self.code = response.errorBody?.code
        }
    }

    /// Runs every request at once and collects what each answered.
    static func race(_ requests: [@Sendable () async throws -> Outcome]) async throws -> [Outcome] {
        try await withThrowingTaskGroup(of: Outcome.self) { group in
            for request in requests { group.addTask { try await request() } }
            return try await group.reduce(into: [Outcome]()) { $0.append($1) }
        }
    }

    /// Both workers at the same time: expiry and notification delivery race too.
    static func tickBoth(_ one: MaintenanceService, _ other: MaintenanceService) async {
        async let first: Void = one.tick()
        async let second: Void = other.tick()
        _ = await (first, second)
    }

    /// Every outbox message (email or SMS) that mentions the booking.
    static func messages(about reference: String, _ client: any TestClientProtocol) async throws -> [[String: Any]] {
        try await client.outboxMessages().filter {
            (($0["subject"] as? String) ?? "").contains(reference)
                || (($0["body"] as? String) ?? "").contains(reference)
        }
    }

    @Test func concurrentMollieWebhooksAndReturnVisitsOnBothInstancesConfirmOnceAndNotifyOnce() async throws {
        let (first, second) = try await Self.pair()
        let mollie = MollieStub()
        let provider = mollie.provider()
        try await first.runWithWorker(payments: provider) { a, workerA in
            try await second.runWithWorker(payments: provider) { b, workerB in
                let token = try await a.signedInCustomer(phone: "+41797770001", email: "anna@example.ch")
                let booked = try await b.book(token: token, pickupAt: first.clock.now.addingTimeInterval(3 * Self.day))
                #expect(booked.status == .ok)
                let reference = try require(try booked.decode(BookingResponse.self).quoteReference)
                let created = await mollie.payments
                try #require(created.count == 1)
                let payment = created[0]
                #expect(payment.webhookURL?.hasSuffix("/payments/mollie/webhook") == true)
                #expect(payment.metadata["bookingReference"] == reference)
                let returnURL = try require(URLComponents(string: payment.redirectURL))
                let returnPath = returnURL.path + "?" + (returnURL.percentEncodedQuery ?? "")

                // Mollie calls while the customer is still at the checkout: nothing changes.
                #expect(try await a.mollieWebhook(id: payment.id).status == .ok)
                #expect(try await b.bookingStatus(reference, token: token) == "awaiting_payment")

                // Paid. Mollie delivers (and re-delivers) its webhook to both instances while the
                // customer's browser lands on the return page, which asks Mollie too.
                await mollie.set(payment.id, status: "paid")
                var requests: [@Sendable () async throws -> Outcome] = []
                for index in 0..<20 {
                    let client = index.isMultiple(of: 2) ? a : b
                    requests.append { Outcome(.webhook, try await client.mollieWebhook(id: payment.id)) }
                }
                for index in 0..<6 {
                    let client = index.isMultiple(of: 2) ? b : a
                    requests.append { Outcome(.returnPage, try await client.send(.get, returnPath)) }
                }
                let outcomes = try await Self.race(requests)
                let webhooks = outcomes.filter { $0.kind == .webhook }
                let pages = outcomes.filter { $0.kind == .returnPage }
                #expect(webhooks.count == 20)
                #expect(webhooks.allSatisfy { $0.status == .ok }, "\(webhooks.map(\.status))")
                #expect(pages.count == 6)
                #expect(pages.allSatisfy { $0.status == .ok && $0.body.contains("Booking confirmed") })
                #expect(try await a.bookingStatus(reference, token: token) == "confirmed")
                #expect(try await b.bookingStatus(reference, token: token) == "confirmed")

                // One transition in the event log, whichever request made it.
                let log = try await a.adminBooking(reference, adminToken: Self.adminToken).events
                #expect(log.map(\.type) == ["created", "confirmed"])
                #expect(log.filter { $0.type == "confirmed" }.count == 1)

                // Both workers drain the outbox at once, twice: one confirmation goes out.
                await Self.tickBoth(workerA, workerB)
                await Self.tickBoth(workerA, workerB)
                let sent = try await Self.messages(about: reference, b)
                #expect(sent.count == 1)
                #expect(sent.first?["channel"] as? String == "email")
                #expect((sent.first?["subject"] as? String)?.contains("is confirmed") == true)

                // One payment at Mollie, never refunded or cancelled.
                #expect(await mollie.createRequests == 1)
                let after = await mollie.payments
                #expect(after.count == 1)
                #expect(after.first?.status == "paid")
                #expect(after.first?.refunded == false)
            }
        }
    }

    @Test func concurrentBookingsWithOneIdempotencyKeyOnBothInstancesMakeOneBookingAndOnePayment() async throws {
        let (first, second) = try await Self.pair()
        let mollie = MollieStub()
        let provider = mollie.provider()
        try await first.runWithWorker(payments: provider) { a, _ in
            try await second.runWithWorker(payments: provider) { b, _ in
                let token = try await a.signedInCustomer(phone: "+41797770002")
                let pickup = first.clock.now.addingTimeInterval(3 * Self.day)
                let key = "ride-to-the-airport-1"
                var requests: [@Sendable () async throws -> Outcome] = []
                for index in 0..<20 {
                    let client = index.isMultiple(of: 2) ? a : b
                    requests.append {
                        Outcome(.booking, try await client.book(token: token, pickupAt: pickup, key: key))
                    }
                }
                let outcomes = try await Self.race(requests)

                // The one that claimed the key books; the others are told it is still running
                // (409 request_in_progress, as documented) or, once it is done, get its answer.
                let booked = outcomes.filter { $0.status == .ok }
                let waiting = outcomes.filter { $0.status == .conflict }
                #expect(booked.count + waiting.count == 20, "\(outcomes.map(\.status))")
                #expect(Set(booked.map(\.body)).count == 1)
                #expect(waiting.allSatisfy { $0.code == "request_in_progress" }, "\(waiting.map(\.code))")
                let answer = try require(booked.first?.body)
                let reference = try require(
                    try JSONDecoder().decode(BookingResponse.self, from: Data(answer.utf8)).quoteReference)

                // Every client told to wait retries, on either instance, and gets the same booking.
                for index in waiting.indices {
                    let client = index.isMultiple(of: 2) ? b : a
                    let retry = try await client.book(token: token, pickupAt: pickup, key: key)
                    #expect(retry.status == .ok)
                    #expect(String(buffer: retry.body) == answer)
                }

                for client in [a, b] {
                    let list = try await client.send(.get, "/rides/bookings", token: token).decode(
                        BookingListResponse.self)
                    #expect(list.bookings.map(\.reference) == [reference])
                }
                #expect(await mollie.createRequests == 1)
                #expect(await mollie.payments.count == 1)
            }
        }
    }

    @Test func oneStripeEventDeliveredToBothInstancesAtOnceIsAppliedOnce() async throws {
        let secret = "whsec_two_instances"
        let (first, second) = try await Self.pair(environment: [
            "CONCIERGE_PAYMENT_PROVIDER": "stripe", "STRIPE_SECRET_KEY": "sk_test_123", "STRIPE_WEBHOOK_SECRET": secret,
        ])
        let stripe = CountingPaymentProvider(name: "stripe")
        try await first.runWithWorker(payments: stripe) { a, workerA in
            try await second.runWithWorker(payments: stripe) { b, workerB in
                let token = try await a.signedInCustomer(phone: "+41797770003", email: "beat@example.ch")
                let booked = try await a.book(token: token, pickupAt: first.clock.now.addingTimeInterval(3 * Self.day))
                let reference = try require(try booked.decode(BookingResponse.self).quoteReference)
                let sessionID = try require(stripe.paymentIDs.first)
                stripe.set(sessionID, .paid)
                let now = first.clock.now

                var requests: [@Sendable () async throws -> Outcome] = []
                for index in 0..<20 {
                    let client = index.isMultiple(of: 2) ? a : b
                    requests.append {
                        Outcome(
                            .webhook,
                            try await client.stripeCheckoutCompleted(
                                eventID: "evt_two_instances", sessionID: sessionID, secret: secret, at: now))
                    }
                }
                let outcomes = try await Self.race(requests)
                #expect(outcomes.allSatisfy { $0.status == .ok }, "\(outcomes.map(\.status))")
                // The event log let one delivery through: Stripe was asked once.
                #expect(stripe.fetchCount == 1)
                #expect(try await b.bookingStatus(reference, token: token) == "confirmed")
                let log = try await b.adminBooking(reference, adminToken: Self.adminToken).events
                #expect(log.map(\.type) == ["created", "confirmed"])

                // Another event about the same session is applied, and changes nothing.
                let other = try await b.stripeCheckoutCompleted(
                    eventID: "evt_two_instances_2", sessionID: sessionID, secret: secret, at: now)
                #expect(other.status == .ok)
                #expect(stripe.fetchCount == 2)
                let again = try await a.adminBooking(reference, adminToken: Self.adminToken).events
                #expect(again.map(\.type) == ["created", "confirmed"])

                await Self.tickBoth(workerA, workerB)
                await Self.tickBoth(workerA, workerB)
                #expect(try await Self.messages(about: reference, a).count == 1)
                #expect(stripe.createCount == 1)
            }
        }
    }
}
