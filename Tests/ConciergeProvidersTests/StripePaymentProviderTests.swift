import ConciergeCore
import Foundation
import Testing

@testable import ConciergeProviders

/// Stripe Checkout Sessions, against recorded answers through the transport seam.
@Suite struct StripePaymentProviderTests {
    private typealias Values = PaymentTestValues
    private static let sessionID = "cs_test_a1YS1URlnyQCN5fUUduORoQ7Pw41PJqDWkIVQCpJPqkfIhd6tVY8XB1OLY"
    private static let fetchURL =
        "https://api.stripe.com/v1/checkout/sessions/\(sessionID)?expand%5B%5D=payment_intent.latest_charge"

    // MARK: create

    @Test func createPostsFormWithBracketsBearerVersionAndIdempotencyKey() async throws {
        let transport = try RecordingTransport(status: 200, fixture: "stripe_checkout_session_open")

        let created = try await Values.stripe(transport).createPayment(Values.request)

        let request = try await transport.onlyRequest
        #expect(request.method == "POST")
        #expect(request.url == "https://api.stripe.com/v1/checkout/sessions")
        #expect(request.header("Authorization") == "Bearer \(Values.stripeKey)")
        #expect(request.header("Stripe-Version") == "2026-07-29.dahlia")
        #expect(request.header("Content-Type") == "application/x-www-form-urlencoded")
        #expect(request.header("Idempotency-Key") == "concierge-payment-VRM-1234-9500-chf-1800003600")
        let expected = [
            "mode=payment",
            "line_items%5B0%5D%5Bprice_data%5D%5Bcurrency%5D=chf",
            "line_items%5B0%5D%5Bprice_data%5D%5Bunit_amount%5D=9500",
            "line_items%5B0%5D%5Bprice_data%5D%5Bproduct_data%5D%5Bname%5D=Concierge%20ride%20VRM-1234",
            "line_items%5B0%5D%5Bquantity%5D=1",
            "success_url=https%3A%2F%2Fconcierge.example%2Fbookings%2FVRM-1234%2Fpaid",
            "cancel_url=https%3A%2F%2Fconcierge.example%2Fbookings%2FVRM-1234%2Fpaid",
            "expires_at=1800003600",
            "metadata%5BbookingReference%5D=VRM-1234",
        ].joined(separator: "&")
        #expect(request.bodyText == expected)
        #expect(await transport.timeouts == [.seconds(10)])
        #expect(
            created
                == CreatedPayment(
                    id: Self.sessionID, checkoutURL: "https://checkout.stripe.com/c/pay/\(Self.sessionID)",
                    status: .open))
    }

    @Test func createSortsMetadataKeysAndUsesInjectedBaseAndVersion() async throws {
        let transport = try RecordingTransport(status: 200, fixture: "stripe_checkout_session_open")
        let provider = StripePaymentProvider(
            secretKey: Values.stripeKey, clock: ManualTimeSource(Values.now), transport: transport,
            baseURL: "http://127.0.0.1:12111/", apiVersion: "2025-01-01.test", retryBackoff: .zero)
        let request = PaymentRequest(
            amountCents: 100, currency: "CHF", description: "d", redirectURL: "r", webhookURL: "",
            expiresAt: Values.now.addingTimeInterval(7200), metadata: ["z": "1", "a": "2 & 3"])

        _ = try await provider.createPayment(request)

        let sent = try await transport.onlyRequest
        #expect(sent.url == "http://127.0.0.1:12111/v1/checkout/sessions")
        #expect(sent.header("Stripe-Version") == "2025-01-01.test")
        #expect(sent.bodyText?.hasSuffix("&metadata%5Ba%5D=2%20%26%203&metadata%5Bz%5D=1") == true)
    }

    @Test(arguments: [
        (-3600.0, 1_800_001_860),  // already past: the minimum, 30 min + 1 min margin
        (600.0, 1_800_001_860),  // under Stripe's 30-minute minimum
        (1860.0, 1_800_001_860),
        (3600.0, 1_800_003_600),  // as requested
        (172_800.0, 1_800_086_400),  // over the 24-hour maximum
    ])
    func expiryIsClampedToStripesWindow(offset: TimeInterval, expected: Int) async throws {
        let transport = try RecordingTransport(status: 200, fixture: "stripe_checkout_session_open")
        let request = PaymentRequest(
            amountCents: 100, currency: "CHF", description: "d", redirectURL: "r", webhookURL: "",
            expiresAt: Values.now.addingTimeInterval(offset), metadata: [:])

        _ = try await Values.stripe(transport).createPayment(request)

        let fields = try await transport.onlyRequest.bodyText?.split(separator: "&").map(String.init) ?? []
        #expect(fields.contains("expires_at=\(expected)"))
        #expect(StripePaymentProvider.expiresAt(requested: request.expiresAt, now: Values.now) == expected)
    }

    @Test func createRetriesOnceAfterTimeOutWithTheSameKeyAndBody() async throws {
        let answers = ScriptedAnswers([.failure(.timedOut), try Fixture.ok(200, "stripe_checkout_session_open")])
        let transport = answers.transport

        _ = try await Values.stripe(transport).createPayment(Values.request)

        let requests = await transport.requests
        #expect(requests.count == 2)
        #expect(requests[0].header("Idempotency-Key") == requests[1].header("Idempotency-Key"))
        #expect(requests[0].body == requests[1].body)
    }

    @Test func createAnswerWithoutURLIsUnexpected() async throws {
        let body = try Fixture.json("stripe_checkout_session_open", changing: ["url": NSNull()])
        let error = await #expect(throws: ConciergeError.self) {
            try await Values.stripe(RecordingTransport(status: 200, body: body)).createPayment(Values.request)
        }
        #expect(error?.code == "payments_failed")
    }

    // MARK: fetch

    @Test func fetchExpandsTheLatestChargeAndMapsRefunds() async throws {
        let transport = try RecordingTransport(status: 200, fixture: "stripe_checkout_session_complete_paid")

        let snapshot = try await Values.stripe(transport).fetchPayment(id: Self.sessionID)

        let request = try await transport.onlyRequest
        #expect(request.method == "GET")
        #expect(request.url == Self.fetchURL)
        #expect(request.header("Authorization") == "Bearer \(Values.stripeKey)")
        #expect(request.header("Stripe-Version") == "2026-07-29.dahlia")
        #expect(request.body == nil)
        #expect(
            snapshot
                == PaymentSnapshot(
                    id: Self.sessionID, status: .paid, amountCents: 9500, refundedCents: 2050,
                    metadata: ["bookingReference": "VRM-1234"]))
    }

    @Test(arguments: [
        ("open", "unpaid", PaymentStatus.open),
        ("complete", "paid", .paid),
        ("complete", "no_payment_required", .paid),
        ("complete", "unpaid", .pending),
        ("expired", "unpaid", .expired),
    ])
    func fetchMapsSessionStatus(status: String, paymentStatus: String, expected: PaymentStatus) async throws {
        let body = try Fixture.json(
            "stripe_checkout_session_open", changing: ["status": status, "payment_status": paymentStatus])
        let snapshot = try await Values.stripe(RecordingTransport(status: 200, body: body)).fetchPayment(
            id: Self.sessionID)
        #expect(snapshot.status == expected)
        #expect(snapshot.refundedCents == 0)
    }

    @Test func completeUnpaidWithAFailedChargeIsFailed() async throws {
        let paymentIntent: [String: Any] = [
            "id": "pi_1", "object": "payment_intent",
            "latest_charge": ["id": "ch_1", "object": "charge", "amount_refunded": 0, "status": "failed"],
        ]
        let body = try Fixture.json(
            "stripe_checkout_session_complete_paid",
            changing: ["payment_status": "unpaid", "payment_intent": paymentIntent])
        let snapshot = try await Values.stripe(RecordingTransport(status: 200, body: body)).fetchPayment(
            id: Self.sessionID)
        #expect(snapshot.status == .failed)
    }

    @Test func unexpandedPaymentIntentMeansNothingRefundedKnown() async throws {
        let body = try Fixture.json("stripe_checkout_session_complete_paid", changing: ["payment_intent": "pi_1"])
        let snapshot = try await Values.stripe(RecordingTransport(status: 200, body: body)).fetchPayment(
            id: Self.sessionID)
        #expect(snapshot.status == .paid)
        #expect(snapshot.refundedCents == 0)
    }

    @Test func fetchUnknownStatusIsUnexpected() async throws {
        let body = try Fixture.json("stripe_checkout_session_open", changing: ["status": "teleported"])
        let error = await #expect(throws: ConciergeError.self) {
            try await Values.stripe(RecordingTransport(status: 200, body: body)).fetchPayment(id: Self.sessionID)
        }
        #expect(error?.code == "payments_failed")
    }

    @Test func fetchRetriesOnceAfter5xxAndTimeOut() async throws {
        let answers = ScriptedAnswers([
            .success(ProviderHTTPResponse(status: 500)), try Fixture.ok(200, "stripe_checkout_session_open"),
        ])
        let transport = answers.transport
        #expect(try await Values.stripe(transport).fetchPayment(id: Self.sessionID).status == .open)
        #expect(await transport.requests.count == 2)

        let timingOut = RecordingTransport(failing: .timedOut)
        let error = await #expect(throws: ConciergeError.self) {
            try await Values.stripe(timingOut).fetchPayment(id: Self.sessionID)
        }
        #expect(error?.category == .unavailable(retryAfterSeconds: nil))
        #expect(error?.code == "payments_unavailable")
        #expect(await timingOut.requests.count == 2)
    }

    // MARK: cancel

    @Test func cancelExpiresTheSession() async throws {
        let body = try Fixture.json("stripe_checkout_session_open", changing: ["status": "expired"])
        let transport = RecordingTransport(status: 200, body: body)

        try await Values.stripe(transport).cancelPayment(id: Self.sessionID)

        let request = try await transport.onlyRequest
        #expect(request.method == "POST")
        #expect(request.url == "https://api.stripe.com/v1/checkout/sessions/\(Self.sessionID)/expire")
        #expect(request.header("Authorization") == "Bearer \(Values.stripeKey)")
        #expect(request.header("Idempotency-Key") == "concierge-expire-\(Self.sessionID)")
        #expect(request.bodyText == "")
    }

    @Test(arguments: ["complete", "expired"])
    func cancelOfAFinalSessionSucceeds(status: String) async throws {
        let answers = AnswersByMethod([
            "POST": [try Fixture.ok(400, "stripe_error_expire_400")],
            "GET": [
                .success(
                    ProviderHTTPResponse(
                        status: 200,
                        body: try Fixture.json("stripe_checkout_session_complete_paid", changing: ["status": status])))
            ],
        ])
        let transport = answers.transport

        try await Values.stripe(transport).cancelPayment(id: Self.sessionID)

        #expect(await transport.requests.map(\.method) == ["POST", "GET"])
        #expect(await transport.requests.last?.url == Self.fetchURL)
    }

    @Test func cancelRefusedForAnOpenSessionFails() async throws {
        let answers = AnswersByMethod([
            "POST": [try Fixture.ok(400, "stripe_error_expire_400")],
            "GET": [try Fixture.ok(200, "stripe_checkout_session_open")],
        ])
        let error = await #expect(throws: ConciergeError.self) {
            try await Values.stripe(answers.transport).cancelPayment(id: Self.sessionID)
        }
        #expect(error?.code == "payment_rejected")
    }

    @Test func cancelOfAnUnknownSessionIsNotFound() async throws {
        let transport = try RecordingTransport(status: 404, fixture: "stripe_error_404")
        let error = await #expect(throws: ConciergeError.self) {
            try await Values.stripe(transport).cancelPayment(id: "cs_test_missing")
        }
        #expect(error?.code == "payment_not_found")
        #expect(await transport.requests.count == 1)
    }

    // MARK: refund

    @Test func refundReadsThePaymentIntentThenPostsARefund() async throws {
        let answers = AnswersByMethod([
            "GET": [try Fixture.ok(200, "stripe_checkout_session_complete_paid")],
            "POST": [try Fixture.ok(200, "stripe_refund")],
        ])
        let transport = answers.transport

        let refundID = try await Values.stripe(transport).refundPayment(
            id: Self.sessionID, amountCents: 2050, currency: "CHF", reason: "Ride canceled",
            idempotencyKey: "refund-VRM-1234-1")

        #expect(refundID == "re_1Pgc72B7WZ01zgkWqPvrRrPE")
        let requests = await transport.requests
        #expect(requests.map(\.url) == [Self.fetchURL, "https://api.stripe.com/v1/refunds"])
        let post = requests[1]
        #expect(post.method == "POST")
        #expect(post.header("Authorization") == "Bearer \(Values.stripeKey)")
        #expect(post.header("Stripe-Version") == "2026-07-29.dahlia")
        #expect(post.header("Content-Type") == "application/x-www-form-urlencoded")
        #expect(post.header("Idempotency-Key") == "refund-VRM-1234-1")
        #expect(
            post.bodyText
                == "payment_intent=pi_1PgafyB7WZ01zgkWSjxsAJo3&amount=2050&metadata%5Breason%5D=Ride%20canceled")
    }

    @Test func refundOfASessionWithoutPaymentIntentIsRejected() async throws {
        let transport = try RecordingTransport(status: 200, fixture: "stripe_checkout_session_open")
        let error = await #expect(throws: ConciergeError.self) {
            try await Values.stripe(transport).refundPayment(
                id: Self.sessionID, amountCents: 100, currency: "CHF", reason: "r", idempotencyKey: "k")
        }
        #expect(error?.code == "payment_rejected")
        #expect(await transport.requests.count == 1)
    }

    @Test func refundRetriesOnceAfterTimeOutWithTheSameKey() async throws {
        let answers = AnswersByMethod([
            "GET": [try Fixture.ok(200, "stripe_checkout_session_complete_paid")],
            "POST": [.failure(.timedOut), try Fixture.ok(200, "stripe_refund")],
        ])
        let transport = answers.transport
        _ = try await Values.stripe(transport).refundPayment(
            id: Self.sessionID, amountCents: 100, currency: "CHF", reason: "r", idempotencyKey: "k-9")
        let posts = await transport.requests.filter { $0.method == "POST" }
        #expect(posts.map { $0.header("Idempotency-Key") } == ["k-9", "k-9"])
    }

    // MARK: errors

    @Test(arguments: [
        (401, "stripe_error_401", "payments_misconfigured"),
        (403, "stripe_error_401", "payments_misconfigured"),
        (404, "stripe_error_404", "payment_not_found"),
        (400, "stripe_error_404", "payment_not_found"),  // resource_missing, whatever the status
        (400, "stripe_error_400", "payment_rejected"),
        (402, "stripe_error_400", "payment_rejected"),
        (409, "stripe_error_400", "payment_rejected"),
    ])
    func clientErrorsAreUpstreamFailures(status: Int, fixture: String, code: String) async throws {
        let logs = CapturedLogs()
        let transport = try RecordingTransport(status: status, fixture: fixture)
        let error = await #expect(throws: ConciergeError.self) {
            try await Values.stripe(transport, logs: logs).createPayment(Values.request)
        }
        let thrown = try #require(error)
        #expect(thrown.category == .upstreamFailed)
        #expect(thrown.code == code)
        expectNoSecret(thrown, Values.stripeKey)
        #expect(!thrown.message.contains("Missing required param"))
        #expect(!logs.text.contains(Values.stripeKey))
        #expect(logs.text.contains("stripe_type"))
        #expect(await transport.requests.count == 1)
    }

    @Test func rateLimitIsUnavailable() async throws {
        let transport = try RecordingTransport(
            status: 429, headers: [("Retry-After", "2")], fixture: "stripe_error_429")
        let error = await #expect(throws: ConciergeError.self) {
            try await Values.stripe(transport).fetchPayment(id: Self.sessionID)
        }
        #expect(error?.category == .unavailable(retryAfterSeconds: 2))
        #expect(error?.code == "payments_unavailable")
    }

    @Test func serverErrorIsUnavailableAfterOneRetry() async throws {
        let transport = RecordingTransport(
            status: 500, body: Data(#"{"error":{"type":"api_error","message":"boom"}}"#.utf8))
        let error = await #expect(throws: ConciergeError.self) {
            try await Values.stripe(transport).createPayment(Values.request)
        }
        #expect(error?.category == .unavailable(retryAfterSeconds: nil))
        expectNoSecret(try #require(error), Values.stripeKey)
        #expect(await transport.requests.count == 2)
    }

    @Test func nameIsStripe() {
        #expect(Values.stripe(RecordingTransport(status: 200)).name == "stripe")
    }
}
