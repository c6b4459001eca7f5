public import ConciergeCore
import Foundation
public import Logging

/// Mollie Payments API v2 (contract section 1): hosted checkout, status, cancel and refunds.
///
/// | call | request |
/// |---|---|
/// | create | `POST {base}/payments`, JSON, `Idempotency-Key` |
/// | fetch | `GET {base}/payments/{id}` |
/// | cancel | `DELETE {base}/payments/{id}` |
/// | refund | `POST {base}/payments/{id}/refunds`, JSON, `Idempotency-Key` |
///
/// Every call is retried once, after `retryBackoff`, when no answer arrived (time-out,
/// connection refused or reset) or the answer was 5xx: the GET and the DELETE are idempotent by
/// nature, and both POSTs carry an `Idempotency-Key`, so Mollie treats the repeat as a
/// duplicate of the first instead of creating a second payment or refund.
///
/// Errors (Mollie's error document is `{"status", "title", "detail", "field"}`):
///
/// | Mollie answer | error |
/// |---|---|
/// | 401, 403 | `.upstreamFailed` `payments_misconfigured` |
/// | 404 | `.upstreamFailed` `payment_not_found` |
/// | 400, 409, 422, any other 4xx | `.upstreamFailed` `payment_rejected` |
/// | 429, 5xx, time-out, unreachable | `.unavailable` `payments_unavailable` |
/// | a 2xx we cannot read | `.upstreamFailed` `payments_failed` |
///
/// Messages never repeat Mollie's `detail` (it quotes ids and parameters and is written for
/// developers) and never the API key; logs carry the HTTP status, `title` and `field` only.
public struct MolliePaymentProvider: PaymentProvider {
    public static let defaultBaseURL = "https://api.mollie.com/v2"

    public let name = "mollie"

    private let apiKey: String
    private let transport: any ProviderHTTPTransport
    private let baseURL: String
    private let timeout: Duration
    private let retryBackoff: Duration
    private let logger: Logger

    /// - Parameters:
    ///   - apiKey: `test_…` or `live_…`, sent as a Bearer token.
    ///   - baseURL: injectable for tests against a local stub server.
    ///   - timeout: each attempt, the whole exchange.
    ///   - retryBackoff: the pause before the single retry; tests pass zero.
    public init(
        apiKey: String,
        transport: any ProviderHTTPTransport = AsyncHTTPClientTransport(),
        baseURL: String = MolliePaymentProvider.defaultBaseURL,
        timeout: Duration = .seconds(10),
        retryBackoff: Duration = .milliseconds(200),
        logger: Logger = Logger(label: "concierge.providers.mollie")
    ) {
        self.apiKey = apiKey
        self.transport = transport
        var trimmed = baseURL
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        self.baseURL = trimmed
        self.timeout = timeout
        self.retryBackoff = retryBackoff
        self.logger = logger
    }

    // MARK: - PaymentProvider

    public func createPayment(_ request: PaymentRequest) async throws -> CreatedPayment {
        let amount = try MollieAmount(cents: request.amountCents, currency: request.currency)
        let body = MollieCreatePaymentBody(
            amount: amount, description: request.description, redirectUrl: request.redirectURL,
            webhookUrl: request.webhookURL.isEmpty ? nil : request.webhookURL, metadata: request.metadata)
        let response = try await send(
            "POST", "/payments", json: body, idempotencyKey: Self.createIdempotencyKey(for: request),
            operation: "create payment")
        guard (200...299).contains(response.status) else {
            throw failure(response, calling: "create payment")
        }
        guard let payment = try? JSONDecoder().decode(MolliePayment.self, from: response.body),
            let status = PaymentStatus(rawValue: payment.status), let checkout = payment.links?.checkout?.href
        else {
            throw unexpected("create payment")
        }
        return CreatedPayment(id: payment.id, checkoutURL: checkout, status: status)
    }

    public func fetchPayment(id: String) async throws -> PaymentSnapshot {
        let response = try await send("GET", "/payments/\(Self.pathSegment(id))", operation: "get payment")
        guard (200...299).contains(response.status) else {
            throw failure(response, calling: "get payment")
        }
        guard let payment = try? JSONDecoder().decode(MolliePayment.self, from: response.body),
            let status = PaymentStatus(rawValue: payment.status),
            let amountCents = payment.amount.flatMap({ MollieAmount.cents(from: $0.value) })
        else {
            throw unexpected("get payment")
        }
        let refundedCents = payment.amountRefunded.flatMap { MollieAmount.cents(from: $0.value) } ?? 0
        return PaymentSnapshot(
            id: payment.id, status: status, amountCents: amountCents, refundedCents: refundedCents,
            metadata: payment.metadata?.values ?? [:])
    }

    /// Mollie answers 422 when the payment is no longer cancelable, and its `detail` text is not
    /// a contract; so a 422 is followed by a GET, and a payment that is already final (paid,
    /// canceled, expired, failed) counts as success. One that is still open is an error.
    public func cancelPayment(id: String) async throws {
        let response = try await send("DELETE", "/payments/\(Self.pathSegment(id))", operation: "cancel payment")
        if (200...299).contains(response.status) { return }
        guard response.status == 422 else {
            throw failure(response, calling: "cancel payment")
        }
        let snapshot = try await fetchPayment(id: id)
        if Self.finalStatuses.contains(snapshot.status) {
            logger.info(
                "Mollie cancel payment: already final", metadata: ["payment_status": "\(snapshot.status.rawValue)"])
            return
        }
        throw failure(response, calling: "cancel payment")
    }

    public func refundPayment(id: String, amountCents: Int, currency: String, reason: String, idempotencyKey: String)
        async throws -> String
    {
        let body = MollieRefundBody(
            amount: try MollieAmount(cents: amountCents, currency: currency), description: reason)
        let response = try await send(
            "POST", "/payments/\(Self.pathSegment(id))/refunds", json: body, idempotencyKey: idempotencyKey,
            operation: "create refund")
        guard (200...299).contains(response.status) else {
            throw failure(response, calling: "create refund")
        }
        guard let refund = try? JSONDecoder().decode(MollieRefund.self, from: response.body) else {
            throw unexpected("create refund")
        }
        return refund.id
    }

    // MARK: - Sending

    static let finalStatuses: Set<PaymentStatus> = [.paid, .canceled, .expired, .failed]

    /// The same payment attempt always gets the same key, so a retry after a time-out returns
    /// the payment the first attempt created. `expiresAt` is part of it: a later, separate
    /// attempt for the same booking and amount (the first checkout expired) carries a new
    /// expiry and so gets a new payment instead of the old, expired one.
    static func createIdempotencyKey(for request: PaymentRequest) -> String {
        let reference = request.metadata["bookingReference"] ?? UUID().uuidString
        let expiry = Int(request.expiresAt.timeIntervalSince1970.rounded(.down))
        return "concierge-payment-\(reference)-\(request.amountCents)-\(request.currency.uppercased())-\(expiry)"
    }

    static func pathSegment(_ id: String) -> String {
        FormEncoding.percentEncode(id)
    }

    private func send(
        _ method: String, _ path: String, json body: (any Encodable)? = nil, idempotencyKey: String? = nil,
        operation: String
    ) async throws -> ProviderHTTPResponse {
        var headers = [("Authorization", "Bearer \(apiKey)"), ("Accept", "application/json")]
        var data: Data?
        if let body {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            data = try encoder.encode(body)
            headers.append(("Content-Type", "application/json"))
        }
        if let idempotencyKey { headers.append(("Idempotency-Key", idempotencyKey)) }
        let request = ProviderHTTPRequest(method: method, url: baseURL + path, headers: headers, body: data)

        return try await transport.sendRetryingOnce(
            request, timeout: timeout, backoff: retryBackoff, provider: "Mollie", operation: operation, logger: logger,
            unavailable: { MollieErrorMapping.unavailable(retryAfterSeconds: nil) })
    }

    private func failure(_ response: ProviderHTTPResponse, calling operation: String) -> ConciergeError {
        let error = MollieErrorMapping.error(for: response)
        let mollieError = try? JSONDecoder().decode(MollieAPIError.self, from: response.body)
        logger.log(
            level: error.category == .upstreamFailed ? .error : .warning, "Mollie \(operation) failed",
            metadata: [
                "http_status": "\(response.status)", "mollie_title": "\(mollieError?.title ?? "none")",
                "mollie_field": "\(mollieError?.field ?? "none")", "mapped_to": "\(error.code)",
            ])
        return error
    }

    private func unexpected(_ operation: String) -> ConciergeError {
        logger.error("Mollie \(operation) answered with a document we cannot read")
        return MollieErrorMapping.unexpectedResponse
    }
}

/// The one place that turns Mollie's HTTP failures into `ConciergeError`s (table on
/// `MolliePaymentProvider`).
enum MollieErrorMapping {
    static func error(for response: ProviderHTTPResponse) -> ConciergeError {
        switch response.status {
        case 401, 403:
            misconfigured
        case 404:
            notFound
        case 429:
            unavailable(retryAfterSeconds: retryAfterSeconds(response.header("Retry-After")))
        case 500...599:
            unavailable(retryAfterSeconds: nil)
        default:
            rejected
        }
    }

    static let misconfigured = ConciergeError(
        .upstreamFailed, code: "payments_misconfigured",
        message:
            "Online payment is misconfigured on our server, so we cannot take your payment. Please try again later."
    )

    static let notFound = ConciergeError(
        .upstreamFailed, code: "payment_not_found", message: "The payment provider does not know this payment.")

    static let rejected = ConciergeError(
        .upstreamFailed, code: "payment_rejected",
        message: "The payment provider could not handle this payment request. Please try again later.")

    static let unexpectedResponse = ConciergeError(
        .upstreamFailed, code: "payments_failed",
        message: "The payment provider gave an answer we could not read. Please try again later.")

    static func unavailable(retryAfterSeconds: Int?) -> ConciergeError {
        let when = retryAfterSeconds.map { "in \($0) \($0 == 1 ? "second" : "seconds")" } ?? "in a moment"
        return ConciergeError(
            .unavailable(retryAfterSeconds: retryAfterSeconds), code: "payments_unavailable",
            message: "The payment provider is not responding right now. Please try again \(when).")
    }

    /// `Retry-After` in its delta-seconds form; anything else counts as absent.
    static func retryAfterSeconds(_ value: String?) -> Int? {
        guard let value, let seconds = Int(value.trimmingCharacters(in: .whitespaces)), seconds > 0 else {
            return nil
        }
        return seconds
    }
}

// MARK: - Wire types

/// Mollie money: `{"currency": "CHF", "value": "95.00"}`, `value` a string with two decimals.
/// Built from integer cents with integer arithmetic only, so no binary-float rounding can creep in.
struct MollieAmount: Codable, Sendable, Equatable {
    let currency: String
    let value: String

    init(cents: Int, currency: String) throws {
        guard cents >= 0 else {
            throw ConciergeError(.invalidInput, code: "invalid_amount", message: "A payment amount cannot be negative.")
        }
        self.currency = currency.uppercased()
        let fraction = cents % 100
        self.value = "\(cents / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// "10.00" → 1000, "10.5" → 1050, "10" → 1000; nil for anything that is not a plain
    /// non-negative decimal with at most two decimals.
    static func cents(from value: String) -> Int? {
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, let whole = parts.first, !whole.isEmpty, whole.allSatisfy(\.isASCII),
            let units = Int(whole), units >= 0
        else { return nil }
        var fraction = parts.count == 2 ? String(parts[1]) : "00"
        guard fraction.count <= 2, fraction.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        while fraction.count < 2 { fraction += "0" }
        guard let minor = Int(fraction) else { return nil }
        let (scaled, overflow) = units.multipliedReportingOverflow(by: 100)
        return overflow ? nil : scaled + minor
    }
}

struct MollieCreatePaymentBody: Encodable {
    let amount: MollieAmount
    let description: String
    let redirectUrl: String
    let webhookUrl: String?
    let metadata: [String: String]
}

struct MollieRefundBody: Encodable {
    let amount: MollieAmount
    let description: String
}

struct MolliePayment: Decodable {
    struct Links: Decodable {
        let checkout: Link?
    }

    struct Link: Decodable {
        let href: String
    }

    struct Money: Decodable {
        let value: String
    }

    let id: String
    let status: String
    let amount: Money?
    let amountRefunded: Money?
    let metadata: LenientStringMap?
    let links: Links?

    enum CodingKeys: String, CodingKey {
        case id, status, amount, amountRefunded, metadata
        case links = "_links"
    }
}

struct MollieRefund: Decodable {
    let id: String
}

/// `{"status": 422, "title": "Unprocessable Entity", "detail": "…", "field": "…"}`; `detail`
/// is deliberately not decoded.
struct MollieAPIError: Decodable {
    let status: Int?
    let title: String?
    let field: String?
}

/// Mollie echoes `metadata` as whatever JSON was sent (or `null`); we send a string map, and
/// read one back leniently: strings as they are, numbers and booleans as text, anything else
/// skipped rather than failing the whole payment.
struct LenientStringMap: Decodable {
    let values: [String: String]

    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        guard let container = try? decoder.container(keyedBy: Key.self) else {
            values = [:]
            return
        }
        var values: [String: String] = [:]
        for key in container.allKeys {
            if let text = try? container.decode(String.self, forKey: key) {
                values[key.stringValue] = text
            } else if let number = try? container.decode(Int.self, forKey: key) {
                values[key.stringValue] = String(number)
            } else if let flag = try? container.decode(Bool.self, forKey: key) {
                values[key.stringValue] = String(flag)
            }
        }
        self.values = values
    }
}
