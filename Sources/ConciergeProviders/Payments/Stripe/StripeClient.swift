public import ConciergeCore
import Foundation
public import Logging

/// Stripe Checkout Sessions (contract section 2): a hosted checkout per payment.
///
/// | call | request |
/// |---|---|
/// | create | `POST {base}/v1/checkout/sessions`, form, `Idempotency-Key` |
/// | fetch | `GET {base}/v1/checkout/sessions/{id}?expand[]=payment_intent.latest_charge` |
/// | cancel | `POST {base}/v1/checkout/sessions/{id}/expire`, `Idempotency-Key` |
/// | refund | the session's `payment_intent` (fetch), then `POST {base}/v1/refunds`, form, `Idempotency-Key` |
///
/// Bodies are `application/x-www-form-urlencoded` with bracket notation; every request carries
/// `Authorization: Bearer <secret key>` and the pinned `Stripe-Version`. Every call is retried
/// once, after `retryBackoff`, when no answer arrived or the answer was 5xx; every POST carries
/// an `Idempotency-Key`, so Stripe answers the repeat with the first attempt's result.
///
/// The session's refunded amount comes from the expanded payment intent's latest charge
/// (`amount_refunded`); a session without a payment intent or charge has refunded 0.
///
/// Errors (Stripe's error document is `{"error": {"type", "code", "message", …}}`):
///
/// | Stripe answer | error |
/// |---|---|
/// | 401, 403 | `.upstreamFailed` `payments_misconfigured` |
/// | 404, or code `resource_missing` | `.upstreamFailed` `payment_not_found` |
/// | 429, type `rate_limit` (also `lock_timeout` code), 5xx, time-out, unreachable | `.unavailable` `payments_unavailable` |
/// | 400, 402, 409 (`idempotency_error`), any other 4xx | `.upstreamFailed` `payment_rejected` |
/// | a 2xx we cannot read | `.upstreamFailed` `payments_failed` |
///
/// Messages never repeat Stripe's `message` and never the secret key; logs carry the HTTP
/// status and Stripe's `type` and `code` only.
public struct StripePaymentProvider: PaymentProvider {
    public static let defaultBaseURL = "https://api.stripe.com"
    /// The version stripe-go pins (contract section 2); the fixtures follow its object shape.
    public static let defaultAPIVersion = "2026-07-29.dahlia"
    /// Stripe accepts `expires_at` between 30 minutes and 24 hours after creation.
    static let minimumLifetime: TimeInterval = 30 * 60
    static let maximumLifetime: TimeInterval = 24 * 60 * 60
    /// Added to the minimum so the request's own travel time cannot push it under 30 minutes.
    static let lifetimeMargin: TimeInterval = 60

    public let name = "stripe"

    private let secretKey: String
    private let clock: any TimeSource
    private let transport: any ProviderHTTPTransport
    private let baseURL: String
    private let apiVersion: String
    private let timeout: Duration
    private let retryBackoff: Duration
    private let logger: Logger

    /// - Parameters:
    ///   - secretKey: `sk_test_…` / `sk_live_…` (or a restricted `rk_…` key), sent as Bearer.
    ///   - clock: decides `expires_at` against Stripe's 30-minute minimum.
    ///   - baseURL: injectable for tests against a local stub server.
    ///   - timeout: each attempt, the whole exchange.
    ///   - retryBackoff: the pause before the single retry; tests pass zero.
    public init(
        secretKey: String,
        clock: any TimeSource = SystemTimeSource(),
        transport: any ProviderHTTPTransport = AsyncHTTPClientTransport(),
        baseURL: String = StripePaymentProvider.defaultBaseURL,
        apiVersion: String = StripePaymentProvider.defaultAPIVersion,
        timeout: Duration = .seconds(10),
        retryBackoff: Duration = .milliseconds(200),
        logger: Logger = Logger(label: "concierge.providers.stripe")
    ) {
        self.secretKey = secretKey
        self.clock = clock
        self.transport = transport
        var trimmed = baseURL
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        self.baseURL = trimmed
        self.apiVersion = apiVersion
        self.timeout = timeout
        self.retryBackoff = retryBackoff
        self.logger = logger
    }

    // MARK: - PaymentProvider

    public func createPayment(_ request: PaymentRequest) async throws -> CreatedPayment {
        guard request.amountCents >= 0 else {
            throw ConciergeError(.invalidInput, code: "invalid_amount", message: "A payment amount cannot be negative.")
        }
        let expiresAt = Self.expiresAt(requested: request.expiresAt, now: clock.now)
        var fields: [(String, String)] = [
            ("mode", "payment"),
            ("line_items[0][price_data][currency]", request.currency.lowercased()),
            ("line_items[0][price_data][unit_amount]", String(request.amountCents)),
            ("line_items[0][price_data][product_data][name]", request.description),
            ("line_items[0][quantity]", "1"),
            ("success_url", request.redirectURL),
            ("cancel_url", request.redirectURL),
            ("expires_at", String(expiresAt)),
        ]
        for key in request.metadata.keys.sorted() {
            fields.append(("metadata[\(key)]", request.metadata[key] ?? ""))
        }
        let response = try await send(
            "POST", "/v1/checkout/sessions", form: fields,
            idempotencyKey: Self.createIdempotencyKey(for: request, expiresAt: expiresAt),
            operation: "create checkout session")
        guard (200...299).contains(response.status) else {
            throw failure(response, calling: "create checkout session")
        }
        guard let session = try? JSONDecoder().decode(StripeCheckoutSession.self, from: response.body),
            let url = session.url, let status = session.paymentStatus
        else {
            throw unexpected("create checkout session")
        }
        return CreatedPayment(id: session.id, checkoutURL: url, status: status)
    }

    public func fetchPayment(id: String) async throws -> PaymentSnapshot {
        let session = try await fetchSession(id: id)
        guard let status = session.paymentStatus else {
            throw unexpected("get checkout session")
        }
        return PaymentSnapshot(
            id: session.id, status: status, amountCents: session.amountTotal ?? session.amountSubtotal ?? 0,
            refundedCents: session.paymentIntent?.latestCharge?.amountRefunded ?? 0,
            metadata: session.metadata ?? [:])
    }

    /// Stripe can only expire an `open` session and answers an error otherwise; its text is not
    /// a contract, so a 4xx is followed by a GET, and a session that is already `expired` or
    /// `complete` counts as success.
    public func cancelPayment(id: String) async throws {
        let path = "/v1/checkout/sessions/\(Self.pathSegment(id))/expire"
        let response = try await send(
            "POST", path, form: [], idempotencyKey: "concierge-expire-\(id)", operation: "expire checkout session")
        if (200...299).contains(response.status) { return }
        guard (400...499).contains(response.status), ![401, 403, 404, 429].contains(response.status) else {
            throw failure(response, calling: "expire checkout session")
        }
        let session = try await fetchSession(id: id)
        if session.status == "expired" || session.status == "complete" {
            logger.info(
                "Stripe expire checkout session: already final", metadata: ["session_status": "\(session.status)"])
            return
        }
        throw failure(response, calling: "expire checkout session")
    }

    public func refundPayment(id: String, amountCents: Int, currency: String, reason: String, idempotencyKey: String)
        async throws -> String
    {
        let session = try await fetchSession(id: id)
        guard let paymentIntent = session.paymentIntent?.id else {
            logger.error("Stripe refund: the checkout session has no payment intent to refund")
            throw StripeErrorMapping.rejected
        }
        let fields = [
            ("payment_intent", paymentIntent), ("amount", String(amountCents)), ("metadata[reason]", reason),
        ]
        let response = try await send(
            "POST", "/v1/refunds", form: fields, idempotencyKey: idempotencyKey, operation: "create refund")
        guard (200...299).contains(response.status) else {
            throw failure(response, calling: "create refund")
        }
        guard let refund = try? JSONDecoder().decode(StripeRefund.self, from: response.body) else {
            throw unexpected("create refund")
        }
        return refund.id
    }

    // MARK: - Helpers

    /// Unix seconds: the requested expiry, but never under Stripe's 30-minute minimum (plus a
    /// margin) nor over its 24-hour maximum.
    static func expiresAt(requested: Date, now: Date) -> Int {
        let earliest = now.addingTimeInterval(minimumLifetime + lifetimeMargin).timeIntervalSince1970
        let latest = now.addingTimeInterval(maximumLifetime).timeIntervalSince1970
        let chosen = min(max(requested.timeIntervalSince1970, earliest), latest)
        return Int(chosen.rounded(.up))
    }

    /// The same attempt always gets the same key (see `MolliePaymentProvider`); Stripe also
    /// rejects a reused key with different parameters, so everything that decides the
    /// parameters is in it.
    static func createIdempotencyKey(for request: PaymentRequest, expiresAt: Int) -> String {
        let reference = request.metadata["bookingReference"] ?? UUID().uuidString
        return "concierge-payment-\(reference)-\(request.amountCents)-\(request.currency.lowercased())-\(expiresAt)"
    }

    static func pathSegment(_ id: String) -> String {
        FormEncoding.percentEncode(id)
    }

    private func fetchSession(id: String) async throws -> StripeCheckoutSession {
        let query = FormEncoding.encode([("expand[]", "payment_intent.latest_charge")])
        let response = try await send(
            "GET", "/v1/checkout/sessions/\(Self.pathSegment(id))?\(query)", form: nil, idempotencyKey: nil,
            operation: "get checkout session")
        guard (200...299).contains(response.status) else {
            throw failure(response, calling: "get checkout session")
        }
        guard let session = try? JSONDecoder().decode(StripeCheckoutSession.self, from: response.body) else {
            throw unexpected("get checkout session")
        }
        return session
    }

    private func send(
        _ method: String, _ path: String, form: [(String, String)]?, idempotencyKey: String?, operation: String
    ) async throws -> ProviderHTTPResponse {
        var headers = [("Authorization", "Bearer \(secretKey)"), ("Stripe-Version", apiVersion)]
        var body: Data?
        if let form {
            body = FormEncoding.body(form)
            headers.append(("Content-Type", "application/x-www-form-urlencoded"))
        }
        if let idempotencyKey { headers.append(("Idempotency-Key", idempotencyKey)) }
        let request = ProviderHTTPRequest(method: method, url: baseURL + path, headers: headers, body: body)

        return try await transport.sendRetryingOnce(
            request, timeout: timeout, backoff: retryBackoff, provider: "Stripe", operation: operation, logger: logger,
            unavailable: { StripeErrorMapping.unavailable(retryAfterSeconds: nil) })
    }

    private func failure(_ response: ProviderHTTPResponse, calling operation: String) -> ConciergeError {
        let error = StripeErrorMapping.error(for: response)
        let stripeError = StripeAPIError.decode(response.body)
        logger.log(
            level: error.category == .upstreamFailed ? .error : .warning, "Stripe \(operation) failed",
            metadata: [
                "http_status": "\(response.status)", "stripe_type": "\(stripeError?.type ?? "none")",
                "stripe_code": "\(stripeError?.code ?? "none")", "mapped_to": "\(error.code)",
            ])
        return error
    }

    private func unexpected(_ operation: String) -> ConciergeError {
        logger.error("Stripe \(operation) answered with a document we cannot read")
        return StripeErrorMapping.unexpectedResponse
    }
}

/// The one place that turns Stripe's HTTP failures into `ConciergeError`s (table on
/// `StripePaymentProvider`). Codes and messages match Mollie's, so callers need not care which
/// provider failed.
enum StripeErrorMapping {
    static func error(for response: ProviderHTTPResponse) -> ConciergeError {
        let stripeError = StripeAPIError.decode(response.body)
        switch response.status {
        case 401, 403:
            return MollieErrorMapping.misconfigured
        case 404:
            return MollieErrorMapping.notFound
        case 429:
            return unavailable(retryAfterSeconds: MollieErrorMapping.retryAfterSeconds(response.header("Retry-After")))
        case 500...599:
            return unavailable(retryAfterSeconds: nil)
        default:
            if stripeError?.code == "resource_missing" { return MollieErrorMapping.notFound }
            if stripeError?.type == "rate_limit" || stripeError?.code == "lock_timeout" {
                return unavailable(retryAfterSeconds: nil)
            }
            return rejected
        }
    }

    static let rejected = MollieErrorMapping.rejected
    static let unexpectedResponse = MollieErrorMapping.unexpectedResponse

    static func unavailable(retryAfterSeconds: Int?) -> ConciergeError {
        MollieErrorMapping.unavailable(retryAfterSeconds: retryAfterSeconds)
    }
}

// MARK: - Wire types

/// `{"error": {"type": "invalid_request_error", "code": "…", "message": "…", …}}`; `message`
/// is deliberately not decoded.
struct StripeAPIError: Decodable {
    struct Body: Decodable {
        let type: String?
        let code: String?
    }

    let error: Body?

    static func decode(_ data: Data) -> Body? {
        (try? JSONDecoder().decode(StripeAPIError.self, from: data))?.error
    }
}

struct StripeCheckoutSession: Decodable {
    let id: String
    let status: String
    let paymentStatusValue: String
    let url: String?
    let amountTotal: Int?
    let amountSubtotal: Int?
    let metadata: [String: String]?
    let paymentIntent: StripeExpandable<StripePaymentIntent>?

    enum CodingKeys: String, CodingKey {
        case id, status, url, metadata
        case paymentStatusValue = "payment_status"
        case amountTotal = "amount_total"
        case amountSubtotal = "amount_subtotal"
        case paymentIntent = "payment_intent"
    }

    /// `status` × `payment_status` onto Concierge's vocabulary: complete+paid (or
    /// no_payment_required) → paid; complete+unpaid → pending (a delayed method such as SEPA
    /// is still settling) unless the latest charge already failed → failed; open → open;
    /// expired → expired. Unknown values give nil.
    var paymentStatus: PaymentStatus? {
        switch (status, paymentStatusValue) {
        case ("open", _): .open
        case ("expired", _): .expired
        case ("complete", "paid"), ("complete", "no_payment_required"): .paid
        case ("complete", "unpaid"):
            paymentIntent?.latestCharge?.status == "failed" ? .failed : .pending
        default: nil
        }
    }
}

/// An id, or the object itself when it was expanded.
enum StripeExpandable<Object: Decodable & StripeIdentified>: Decodable {
    case id(String)
    case object(Object)

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let id = try? container.decode(String.self) {
            self = .id(id)
        } else {
            self = .object(try container.decode(Object.self))
        }
    }

    var id: String {
        switch self {
        case .id(let id): id
        case .object(let object): object.id
        }
    }

    var object: Object? {
        if case .object(let object) = self { return object }
        return nil
    }
}

protocol StripeIdentified {
    var id: String { get }
}

struct StripePaymentIntent: Decodable, StripeIdentified {
    let id: String
    let latestCharge: StripeExpandable<StripeCharge>?

    enum CodingKeys: String, CodingKey {
        case id
        case latestCharge = "latest_charge"
    }
}

struct StripeCharge: Decodable, StripeIdentified {
    let id: String
    let amountRefunded: Int?
    let status: String?

    enum CodingKeys: String, CodingKey {
        case id, status
        case amountRefunded = "amount_refunded"
    }
}

extension StripeExpandable where Object == StripePaymentIntent {
    var latestCharge: StripeCharge? { object?.latestCharge?.object }
}

struct StripeRefund: Decodable {
    let id: String
}
