import ConciergeCore
import ConciergeProviders
import Foundation
import Testing

/// Values shared by the Mollie and Stripe tests.
///
/// Fixture provenance (Fixtures/mollie_*.json, stripe_*.json): `mollie_payment_create_201`,
/// `mollie_payment_paid_200`, `mollie_payment_expired_200`, `mollie_refund_201` and
/// `mollie_error_422` are the recorded Mollie Postman / SDK examples of the contract README
/// (section 1), with amounts, description and metadata of the create and paid ones changed to a
/// CHF 95.00 booking, and `amountRefunded` of the paid one set to 20.50. The 401, 404 and
/// cancel-422 error documents follow the recorded error shape; their detail texts are
/// illustrative (the adapter never reads them) and the 401 one quotes a key, as a careless
/// proxy might. `stripe_checkout_session_*`, `stripe_refund` and `stripe_event_*` are
/// `stripe/openapi` fixtures3 objects (`checkout.session`, `payment_intent`, `charge`,
/// `refund`, `event`) trimmed and adapted as the contract README (section 2) does; the complete
/// session has its payment intent and latest charge expanded. The Stripe error documents follow
/// the contract's error shape with illustrative messages.
enum PaymentTestValues {
    static let mollieKey = "test_dHar4XY7LxsDOtmnkVtjNVWXLSlXsM"
    static let stripeKey = "sk_test_51Concierge0000000000000000000000"
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static let request = PaymentRequest(
        amountCents: 9500, currency: "CHF", description: "Concierge ride VRM-1234",
        redirectURL: "https://concierge.example/bookings/VRM-1234/paid",
        webhookURL: "https://concierge.example/webhooks/mollie", expiresAt: now.addingTimeInterval(3600),
        metadata: ["bookingReference": "VRM-1234"])

    static func mollie(_ transport: RecordingTransport, logs: CapturedLogs = CapturedLogs()) -> MolliePaymentProvider {
        MolliePaymentProvider(apiKey: mollieKey, transport: transport, retryBackoff: .zero, logger: logs.logger)
    }

    static func stripe(_ transport: RecordingTransport, logs: CapturedLogs = CapturedLogs()) -> StripePaymentProvider {
        StripePaymentProvider(
            secretKey: stripeKey, clock: ManualTimeSource(now), transport: transport, retryBackoff: .zero,
            logger: logs.logger)
    }
}

extension Fixture {
    /// A fixture with some top-level fields replaced (`NSNull()` for JSON null), for states the
    /// recordings do not cover.
    static func json(_ name: String, changing changes: [String: Any]) throws -> Data {
        var object = try #require(
            try JSONSerialization.jsonObject(with: try data(name)) as? [String: Any], "\(name) is not an object")
        for (key, value) in changes { object[key] = value }
        return try JSONSerialization.data(withJSONObject: object)
    }

    static func ok(_ status: Int, _ name: String, headers: [(String, String)] = []) throws
        -> Result<ProviderHTTPResponse, ProviderTransportError>
    {
        try ScriptedAnswers.response(status: status, fixture: name, headers: headers)
    }
}

/// Answers each request by method, in order per method (the last answer repeats), for flows that
/// mix calls (cancel → fetch, fetch → refund).
final class AnswersByMethod: @unchecked Sendable {
    private let lock = NSLock()
    private var remaining: [String: [Result<ProviderHTTPResponse, ProviderTransportError>]]

    init(_ answers: [String: [Result<ProviderHTTPResponse, ProviderTransportError>]]) {
        self.remaining = answers
    }

    func next(for request: ProviderHTTPRequest) throws -> ProviderHTTPResponse {
        let answer: Result<ProviderHTTPResponse, ProviderTransportError>? = lock.withLock {
            guard var list = remaining[request.method], !list.isEmpty else { return nil }
            let first = list.count > 1 ? list.removeFirst() : list[0]
            remaining[request.method] = list
            return first
        }
        guard let answer else { return ProviderHTTPResponse(status: 599) }
        return try answer.get()
    }

    var transport: RecordingTransport {
        RecordingTransport { try self.next(for: $0) }
    }
}

func expectNoSecret(_ error: ConciergeError, _ secret: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(!error.description.contains(secret), sourceLocation: sourceLocation)
    #expect(!error.message.contains(secret), sourceLocation: sourceLocation)
    #expect(!String(describing: error).contains(secret), sourceLocation: sourceLocation)
}
