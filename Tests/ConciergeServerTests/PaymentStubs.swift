import ConciergeCore
import ConciergeProviders
import Foundation

/// Mollie's Payments API v2 in memory, behind the real `MolliePaymentProvider`: the adapter
/// sends exactly what it would send to Mollie, and this answers like Mollie (including
/// `Idempotency-Key` on creates and refunds) and counts what it was asked. One stub stands for
/// one Mollie account, so several server instances can share it.
actor MollieStub: ProviderHTTPTransport {
    struct Payment: Sendable {
        let id: String
        var status: String
        let currency: String
        let value: String
        let metadata: [String: String]
        let redirectURL: String
        let webhookURL: String?
        var refunded: Bool
    }

    static let baseURL = "https://api.mollie.test/v2"

    private(set) var payments: [Payment] = []
    private var keys: [String: String] = [:]
    /// `POST /payments` calls, repeats with a known `Idempotency-Key` included.
    private(set) var createRequests = 0
    private(set) var fetchRequests = 0

    /// The real adapter, talking to this stub.
    nonisolated func provider() -> MolliePaymentProvider {
        MolliePaymentProvider(
            apiKey: "test_dHar4XY7LxsDOtmnkVtjNVWXLSlXsM", transport: self, baseURL: Self.baseURL, retryBackoff: .zero,
            logger: TestApp.quiet)
    }

    func set(_ id: String, status: String) {
        guard let index = payments.firstIndex(where: { $0.id == id }) else { return }
        payments[index].status = status
    }

    func send(_ request: ProviderHTTPRequest, timeout: Duration) async throws -> ProviderHTTPResponse {
        guard request.header("Authorization") == "Bearer test_dHar4XY7LxsDOtmnkVtjNVWXLSlXsM",
            request.url.hasPrefix(Self.baseURL)
        else { return Self.error(401, "Unauthorized Request") }
        let path = request.url.dropFirst(Self.baseURL.count).split(separator: "/").map(String.init)
        switch (request.method, path.count) {
        case ("POST", 1) where path[0] == "payments":
            return try create(request)
        case ("GET", 2) where path[0] == "payments":
            fetchRequests += 1
            guard let payment = payments.first(where: { $0.id == path[1] }) else { return Self.error(404, "Not Found") }
            return try Self.json(200, Self.document(payment))
        case ("DELETE", 2) where path[0] == "payments":
            guard let index = payments.firstIndex(where: { $0.id == path[1] }) else {
                return Self.error(404, "Not Found")
            }
            guard payments[index].status == "open" else { return Self.error(422, "Unprocessable Entity") }
            payments[index].status = "canceled"
            return try Self.json(200, Self.document(payments[index]))
        case ("POST", 3) where path[0] == "payments" && path[2] == "refunds":
            guard let index = payments.firstIndex(where: { $0.id == path[1] }) else {
                return Self.error(404, "Not Found")
            }
            payments[index].refunded = true
            return try Self.json(201, ["resource": "refund", "id": "re_\(path[1].dropFirst(3))"])
        default:
            return Self.error(404, "Not Found")
        }
    }

    private func create(_ request: ProviderHTTPRequest) throws -> ProviderHTTPResponse {
        createRequests += 1
        if let key = request.header("Idempotency-Key"), let id = keys[key],
            let payment = payments.first(where: { $0.id == id })
        {
            return try Self.json(201, Self.document(payment))
        }
        let body = try JSONSerialization.jsonObject(with: request.body ?? Data()) as? [String: Any] ?? [:]
        let amount = body["amount"] as? [String: String] ?? [:]
        let payment = Payment(
            id: "tr_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(10), status: "open",
            currency: amount["currency"] ?? "", value: amount["value"] ?? "",
            metadata: body["metadata"] as? [String: String] ?? [:], redirectURL: body["redirectUrl"] as? String ?? "",
            webhookURL: body["webhookUrl"] as? String, refunded: false)
        payments.append(payment)
        if let key = request.header("Idempotency-Key") { keys[key] = payment.id }
        return try Self.json(201, Self.document(payment))
    }

    private static func document(_ payment: Payment) -> [String: Any] {
        [
            "resource": "payment", "id": payment.id, "mode": "test", "status": payment.status,
            "amount": ["currency": payment.currency, "value": payment.value],
            "amountRefunded": ["currency": payment.currency, "value": payment.refunded ? payment.value : "0.00"],
            "description": "Concierge ride", "metadata": payment.metadata, "redirectUrl": payment.redirectURL,
            "_links": ["checkout": ["href": "https://www.mollie.com/checkout/select-method/\(payment.id)"]],
        ]
    }

    private static func json(_ status: Int, _ object: [String: Any]) throws -> ProviderHTTPResponse {
        ProviderHTTPResponse(
            status: status, headers: [("Content-Type", "application/hal+json")],
            body: try JSONSerialization.data(withJSONObject: object))
    }

    private static func error(_ status: Int, _ title: String) -> ProviderHTTPResponse {
        let body = #"{"status":\#(status),"title":"\#(title)","detail":"stub"}"#
        return ProviderHTTPResponse(
            status: status, headers: [("Content-Type", "application/hal+json")], body: Data(body.utf8))
    }
}

/// A payment provider kept in memory under any name ("stripe" for the Stripe webhook), counting
/// the calls it gets.
final class CountingPaymentProvider: PaymentProvider, @unchecked Sendable {
    let name: String
    private let lock = NSLock()
    private var statuses: [String: PaymentStatus] = [:]
    private var amounts: [String: Int] = [:]
    private var creates = 0
    private var fetches = 0

    init(name: String) { self.name = name }

    func createPayment(_ request: PaymentRequest) async throws -> CreatedPayment {
        let id = "cs_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12)
        lock.withLock {
            creates += 1
            statuses[id] = .open
            amounts[id] = request.amountCents
        }
        return CreatedPayment(id: id, checkoutURL: "https://checkout.example/\(id)", status: .open)
    }

    func fetchPayment(id: String) async throws -> PaymentSnapshot {
        try lock.withLock {
            fetches += 1
            guard let status = statuses[id] else {
                throw ConciergeError(.upstreamFailed, code: "payment_not_found", message: "no such payment")
            }
            return PaymentSnapshot(
                id: id, status: status, amountCents: amounts[id] ?? 0, refundedCents: 0, metadata: [:])
        }
    }

    func cancelPayment(id: String) async throws {
        lock.withLock { if statuses[id] == .open { statuses[id] = .canceled } }
    }

    func refundPayment(id: String, amountCents: Int, currency: String, reason: String, idempotencyKey: String)
        async throws -> String
    { "re_\(idempotencyKey)" }

    func set(_ id: String, _ status: PaymentStatus) { lock.withLock { statuses[id] = status } }
    var paymentIDs: [String] { lock.withLock { Array(statuses.keys) } }
    var createCount: Int { lock.withLock { creates } }
    var fetchCount: Int { lock.withLock { fetches } }
}
