import ConciergeCore
import Foundation
import Testing

@testable import ConciergeProviders

/// Mollie Payments API v2, against recorded answers through the transport seam.
@Suite struct MolliePaymentProviderTests {
    private typealias Values = PaymentTestValues
    private static let expectedCreateKey = "concierge-payment-VRM-1234-9500-CHF-1800003600"

    // MARK: create

    @Test func createPostsJSONWithBearerKeyAndIdempotencyKey() async throws {
        let transport = try RecordingTransport(status: 201, fixture: "mollie_payment_create_201")

        let created = try await Values.mollie(transport).createPayment(Values.request)

        let request = try await transport.onlyRequest
        #expect(request.method == "POST")
        #expect(request.url == "https://api.mollie.com/v2/payments")
        #expect(request.header("Authorization") == "Bearer \(Values.mollieKey)")
        #expect(request.header("Content-Type") == "application/json")
        #expect(request.header("Idempotency-Key") == Self.expectedCreateKey)
        let body = try JSONValue.parse(request.body)
        #expect(
            body == [
                "amount": ["currency": "CHF", "value": "95.00"], "description": "Concierge ride VRM-1234",
                "redirectUrl": "https://concierge.example/bookings/VRM-1234/paid",
                "webhookUrl": "https://concierge.example/webhooks/mollie",
                "metadata": ["bookingReference": "VRM-1234"],
            ])
        #expect(await transport.timeouts == [.seconds(10)])
        #expect(
            created
                == CreatedPayment(
                    id: "tr_KQb4E3WfpA", checkoutURL: "https://www.mollie.com/checkout/select-method/KQb4E3WfpA",
                    status: .open))
    }

    @Test func createLeavesOutAnEmptyWebhookURLAndUsesInjectedBase() async throws {
        let transport = try RecordingTransport(status: 201, fixture: "mollie_payment_create_201")
        let provider = MolliePaymentProvider(
            apiKey: Values.mollieKey, transport: transport, baseURL: "http://127.0.0.1:9000/v2/",
            timeout: .milliseconds(300), retryBackoff: .zero)
        let request = PaymentRequest(
            amountCents: 5, currency: "chf", description: "d", redirectURL: "https://r.example", webhookURL: "",
            expiresAt: Values.now, metadata: [:])

        _ = try await provider.createPayment(request)

        let sent = try await transport.onlyRequest
        #expect(sent.url == "http://127.0.0.1:9000/v2/payments")
        #expect(
            try JSONValue.parse(sent.body)
                == [
                    "amount": ["currency": "CHF", "value": "0.05"], "description": "d",
                    "redirectUrl": "https://r.example", "metadata": [:],
                ])
        #expect(await transport.timeouts == [.milliseconds(300)])
    }

    @Test(arguments: [
        (0, "0.00"), (5, "0.05"), (10, "0.10"), (100, "1.00"), (9505, "95.05"), (9500, "95.00"),
        (123_456_789, "1234567.89"),
    ])
    func amountsHaveExactlyTwoDecimals(cents: Int, value: String) throws {
        #expect(try MollieAmount(cents: cents, currency: "CHF").value == value)
        #expect(MollieAmount.cents(from: value) == cents)
    }

    @Test func amountParsingRejectsAnythingButPlainDecimals() {
        #expect(MollieAmount.cents(from: "10.5") == 1050)
        #expect(MollieAmount.cents(from: "10") == 1000)
        for bad in ["", ".50", "-1.00", "1e3", "10.001", "10,00", "1.2.3", "ten", "１0.00"] {
            #expect(MollieAmount.cents(from: bad) == nil, "\(bad)")
        }
    }

    @Test func negativeAmountIsRejectedBeforeAnyCall() async throws {
        let transport = RecordingTransport(status: 201)
        let request = PaymentRequest(
            amountCents: -1, currency: "CHF", description: "d", redirectURL: "r", webhookURL: "w",
            expiresAt: Values.now, metadata: [:])
        await #expect(throws: ConciergeError.self) { try await Values.mollie(transport).createPayment(request) }
        #expect(await transport.requests.isEmpty)
    }

    @Test func createRetriesOnceAfterTimeOutWithTheSameIdempotencyKey() async throws {
        let answers = ScriptedAnswers([
            .failure(.timedOut), try Fixture.ok(201, "mollie_payment_create_201"),
        ])
        let transport = answers.transport

        let created = try await Values.mollie(transport).createPayment(Values.request)

        #expect(created.id == "tr_KQb4E3WfpA")
        let requests = await transport.requests
        #expect(requests.count == 2)
        #expect(requests.map { $0.header("Idempotency-Key") } == [Self.expectedCreateKey, Self.expectedCreateKey])
        #expect(requests[0].body == requests[1].body)
    }

    @Test func createWithoutBookingReferenceStillSendsOneStableKeyPerCall() async throws {
        let answers = ScriptedAnswers([.failure(.timedOut), try Fixture.ok(201, "mollie_payment_create_201")])
        let transport = answers.transport
        let request = PaymentRequest(
            amountCents: 9500, currency: "CHF", description: "d", redirectURL: "r", webhookURL: "w",
            expiresAt: Values.now, metadata: [:])

        _ = try await Values.mollie(transport).createPayment(request)

        let keys = await transport.requests.map { $0.header("Idempotency-Key") }
        #expect(keys.count == 2)
        #expect(keys[0] != nil && keys[0] == keys[1])
    }

    @Test func createDoesNotRetryARejection() async throws {
        let transport = try RecordingTransport(status: 422, fixture: "mollie_error_422")
        let error = await #expect(throws: ConciergeError.self) {
            try await Values.mollie(transport).createPayment(Values.request)
        }
        #expect(error?.code == "payment_rejected")
        #expect(error?.message.contains("recurringType") == false)
        #expect(await transport.requests.count == 1)
    }

    @Test func createAnswerWithoutCheckoutLinkIsUnexpected() async throws {
        let body = try Fixture.json("mollie_payment_create_201", changing: ["_links": [String: Any]()])
        let transport = RecordingTransport(status: 201, body: body)
        let error = await #expect(throws: ConciergeError.self) {
            try await Values.mollie(transport).createPayment(Values.request)
        }
        #expect(error?.code == "payments_failed")
        #expect(error?.category == .upstreamFailed)
    }

    // MARK: fetch

    @Test func fetchGetsThePaymentAndMapsAmountsAndMetadata() async throws {
        let transport = try RecordingTransport(status: 200, fixture: "mollie_payment_paid_200")

        let snapshot = try await Values.mollie(transport).fetchPayment(id: "tr_oWpmDXm6sT")

        let request = try await transport.onlyRequest
        #expect(request.method == "GET")
        #expect(request.url == "https://api.mollie.com/v2/payments/tr_oWpmDXm6sT")
        #expect(request.header("Authorization") == "Bearer \(Values.mollieKey)")
        #expect(request.body == nil)
        #expect(request.header("Idempotency-Key") == nil)
        #expect(
            snapshot
                == PaymentSnapshot(
                    id: "tr_oWpmDXm6sT", status: .paid, amountCents: 9500, refundedCents: 2050,
                    metadata: ["bookingReference": "VRM-1234"]))
    }

    @Test func fetchRecordedExpiredPaymentHasNothingRefunded() async throws {
        let transport = try RecordingTransport(status: 200, fixture: "mollie_payment_expired_200")
        let snapshot = try await Values.mollie(transport).fetchPayment(id: "tr_FE9UrEs9zU")
        #expect(snapshot.status == .expired)
        #expect(snapshot.amountCents == 1000)
        #expect(snapshot.refundedCents == 0)
        #expect(snapshot.metadata == ["someProperty": "someValue", "anotherProperty": "anotherValue"])
    }

    @Test(arguments: PaymentStatus.allCases)
    func fetchMapsEveryMollieStatus(status: PaymentStatus) async throws {
        let body = try Fixture.json("mollie_payment_paid_200", changing: ["status": status.rawValue])
        let transport = RecordingTransport(status: 200, body: body)
        #expect(try await Values.mollie(transport).fetchPayment(id: "tr_oWpmDXm6sT").status == status)
    }

    @Test func fetchUnknownStatusIsUnexpected() async throws {
        let body = try Fixture.json("mollie_payment_paid_200", changing: ["status": "teleported"])
        let transport = RecordingTransport(status: 200, body: body)
        let error = await #expect(throws: ConciergeError.self) {
            try await Values.mollie(transport).fetchPayment(id: "tr_oWpmDXm6sT")
        }
        #expect(error?.code == "payments_failed")
    }

    @Test func fetchReadsNullOrOddMetadataLeniently() async throws {
        let null = try Fixture.json("mollie_payment_paid_200", changing: ["metadata": NSNull()])
        #expect(
            try await Values.mollie(RecordingTransport(status: 200, body: null)).fetchPayment(id: "tr_x").metadata
                == [:])
        let mixed = try Fixture.json(
            "mollie_payment_paid_200", changing: ["metadata": ["a": "x", "b": 3, "c": ["nested": true]]])
        #expect(
            try await Values.mollie(RecordingTransport(status: 200, body: mixed)).fetchPayment(id: "tr_x").metadata
                == ["a": "x", "b": "3"])
    }

    @Test func fetchKeepsAnOddIdInsideItsPathSegment() async throws {
        let transport = try RecordingTransport(status: 200, fixture: "mollie_payment_paid_200")
        _ = try await Values.mollie(transport).fetchPayment(id: "tr_1/../refunds?x=1")
        #expect(try await transport.onlyRequest.url == "https://api.mollie.com/v2/payments/tr_1%2F..%2Frefunds%3Fx%3D1")
    }

    @Test func fetchRetriesOnceAfter5xx() async throws {
        let answers = ScriptedAnswers([
            .success(ProviderHTTPResponse(status: 503)), try Fixture.ok(200, "mollie_payment_paid_200"),
        ])
        let transport = answers.transport
        #expect(try await Values.mollie(transport).fetchPayment(id: "tr_oWpmDXm6sT").status == .paid)
        #expect(await transport.requests.count == 2)
    }

    @Test func fetchRetriesOnceAfterTimeOut() async throws {
        let answers = ScriptedAnswers([.failure(.timedOut), try Fixture.ok(200, "mollie_payment_paid_200")])
        let transport = answers.transport
        #expect(try await Values.mollie(transport).fetchPayment(id: "tr_oWpmDXm6sT").status == .paid)
        #expect(await transport.requests.count == 2)
    }

    @Test func fetchTimingOutTwiceIsUnavailable() async throws {
        let transport = RecordingTransport(failing: .timedOut)
        let error = await #expect(throws: ConciergeError.self) {
            try await Values.mollie(transport).fetchPayment(id: "tr_oWpmDXm6sT")
        }
        #expect(error?.category == .unavailable(retryAfterSeconds: nil))
        #expect(error?.code == "payments_unavailable")
        #expect(await transport.requests.count == 2)
    }

    @Test func unreachableIsUnavailable() async throws {
        let transport = RecordingTransport(failing: .unreachable("connection refused"))
        let error = await #expect(throws: ConciergeError.self) {
            try await Values.mollie(transport).fetchPayment(id: "tr_oWpmDXm6sT")
        }
        #expect(error?.code == "payments_unavailable")
    }

    // MARK: cancel

    @Test func cancelDeletesThePayment() async throws {
        let body = try Fixture.json("mollie_payment_paid_200", changing: ["status": "canceled"])
        let transport = RecordingTransport(status: 200, body: body)

        try await Values.mollie(transport).cancelPayment(id: "tr_oWpmDXm6sT")

        let request = try await transport.onlyRequest
        #expect(request.method == "DELETE")
        #expect(request.url == "https://api.mollie.com/v2/payments/tr_oWpmDXm6sT")
        #expect(request.header("Authorization") == "Bearer \(Values.mollieKey)")
        #expect(request.body == nil)
    }

    @Test(arguments: ["paid", "canceled", "expired", "failed"])
    func cancelOfAFinalPaymentSucceeds(status: String) async throws {
        let answers = AnswersByMethod([
            "DELETE": [try Fixture.ok(422, "mollie_error_422_cancel")],
            "GET": [
                .success(
                    ProviderHTTPResponse(
                        status: 200, body: try Fixture.json("mollie_payment_paid_200", changing: ["status": status])))
            ],
        ])
        let transport = answers.transport

        try await Values.mollie(transport).cancelPayment(id: "tr_oWpmDXm6sT")

        #expect(await transport.requests.map(\.method) == ["DELETE", "GET"])
    }

    @Test(arguments: ["open", "pending", "authorized"])
    func cancelRefusedForAnUnfinishedPaymentFails(status: String) async throws {
        let answers = AnswersByMethod([
            "DELETE": [try Fixture.ok(422, "mollie_error_422_cancel")],
            "GET": [
                .success(
                    ProviderHTTPResponse(
                        status: 200, body: try Fixture.json("mollie_payment_paid_200", changing: ["status": status])))
            ],
        ])
        let error = await #expect(throws: ConciergeError.self) {
            try await Values.mollie(answers.transport).cancelPayment(id: "tr_oWpmDXm6sT")
        }
        #expect(error?.code == "payment_rejected")
        #expect(error?.message.contains("cannot be canceled") == false)
    }

    @Test func cancelOfAnUnknownPaymentIsNotFound() async throws {
        let transport = try RecordingTransport(status: 404, fixture: "mollie_error_404")
        let error = await #expect(throws: ConciergeError.self) {
            try await Values.mollie(transport).cancelPayment(id: "tr_doesnotexist")
        }
        #expect(error?.code == "payment_not_found")
        #expect(await transport.requests.count == 1)
    }

    // MARK: refund

    @Test func refundPostsAmountDescriptionAndIdempotencyKey() async throws {
        let transport = try RecordingTransport(status: 201, fixture: "mollie_refund_201")

        let refundID = try await Values.mollie(transport).refundPayment(
            id: "tr_nBs82Ujy7g", amountCents: 2050, currency: "CHF", reason: "Ride canceled by the operator",
            idempotencyKey: "refund-VRM-1234-1")

        #expect(refundID == "re_DAsyCbwn97")
        let request = try await transport.onlyRequest
        #expect(request.method == "POST")
        #expect(request.url == "https://api.mollie.com/v2/payments/tr_nBs82Ujy7g/refunds")
        #expect(request.header("Authorization") == "Bearer \(Values.mollieKey)")
        #expect(request.header("Content-Type") == "application/json")
        #expect(request.header("Idempotency-Key") == "refund-VRM-1234-1")
        #expect(
            try JSONValue.parse(request.body)
                == [
                    "amount": ["currency": "CHF", "value": "20.50"], "description": "Ride canceled by the operator",
                ])
    }

    @Test func refundRetriesOnceAfterTimeOutWithTheSameKey() async throws {
        let answers = ScriptedAnswers([.failure(.timedOut), try Fixture.ok(201, "mollie_refund_201")])
        let transport = answers.transport
        _ = try await Values.mollie(transport).refundPayment(
            id: "tr_nBs82Ujy7g", amountCents: 1000, currency: "CHF", reason: "r", idempotencyKey: "k-1")
        #expect(await transport.requests.map { $0.header("Idempotency-Key") } == ["k-1", "k-1"])
    }

    // MARK: errors

    @Test(arguments: [
        (401, "mollie_error_401", "payments_misconfigured"),
        (403, "mollie_error_401", "payments_misconfigured"),
        (404, "mollie_error_404", "payment_not_found"),
        (422, "mollie_error_422", "payment_rejected"),
        (400, "mollie_error_422", "payment_rejected"),
        (409, "mollie_error_422", "payment_rejected"),
    ])
    func clientErrorsAreUpstreamFailures(status: Int, fixture: String, code: String) async throws {
        let logs = CapturedLogs()
        let transport = try RecordingTransport(status: status, fixture: fixture)
        let error = await #expect(throws: ConciergeError.self) {
            try await Values.mollie(transport, logs: logs).fetchPayment(id: "tr_oWpmDXm6sT")
        }
        let thrown = try #require(error)
        #expect(thrown.category == .upstreamFailed)
        #expect(thrown.code == code)
        expectNoSecret(thrown, Values.mollieKey)
        #expect(!thrown.message.contains("No payment exists"))
        #expect(!logs.text.contains(Values.mollieKey))
        #expect(logs.text.contains("http_status"))
        #expect(await transport.requests.count == 1)
    }

    @Test func rateLimitIsUnavailableWithRetryAfter() async throws {
        let transport = RecordingTransport(status: 429, headers: [("Retry-After", "7")])
        let error = await #expect(throws: ConciergeError.self) {
            try await Values.mollie(transport).fetchPayment(id: "tr_oWpmDXm6sT")
        }
        #expect(error?.category == .unavailable(retryAfterSeconds: 7))
        #expect(error?.code == "payments_unavailable")
    }

    @Test(arguments: [500, 502, 503, 504])
    func serverErrorsAreUnavailableAfterOneRetry(status: Int) async throws {
        let transport = RecordingTransport(status: status)
        let error = await #expect(throws: ConciergeError.self) {
            try await Values.mollie(transport).refundPayment(
                id: "tr_x", amountCents: 100, currency: "CHF", reason: "r", idempotencyKey: "k")
        }
        #expect(error?.category == .unavailable(retryAfterSeconds: nil))
        #expect(error?.code == "payments_unavailable")
        #expect(await transport.requests.count == 2)
    }

    @Test func unreadableSuccessIsUnexpected() async throws {
        let transport = RecordingTransport(status: 200, body: Data("<html>".utf8))
        let error = await #expect(throws: ConciergeError.self) {
            try await Values.mollie(transport).fetchPayment(id: "tr_x")
        }
        #expect(error?.code == "payments_failed")
    }

    @Test func nameIsMollie() {
        #expect(Values.mollie(RecordingTransport(status: 200)).name == "mollie")
    }
}
