public import Foundation

/// The sandbox checkout's own record of payments, in the database so every instance sees it.
public protocol SandboxLedger: Sendable {
    func insert(_ payment: SandboxPayment) async throws
    func payment(id: String) async throws -> SandboxPayment?
    /// Moves an open payment to `status`; false when it was no longer open.
    func complete(id: String, status: PaymentStatus) async throws -> Bool
    /// Cancels an open payment; succeeds quietly when it is already final.
    func cancel(id: String) async throws
    /// Marks a paid payment refunded in full. Concierge only ever refunds what is left, so the
    /// sandbox keeps no partial refunds, and a repeated refund changes nothing.
    func refundInFull(id: String) async throws
}

public struct SandboxPayment: Sendable, Equatable {
    public let id: String
    public let amountCents: Int
    public let currency: String
    public let description: String
    public let redirectURL: String
    public var status: PaymentStatus
    public var refundedCents: Int
    public let metadata: [String: String]
    public let createdAt: Date
    public let expiresAt: Date

    public init(
        id: String, amountCents: Int, currency: String, description: String, redirectURL: String, status: PaymentStatus,
        refundedCents: Int, metadata: [String: String], createdAt: Date, expiresAt: Date
    ) {
        self.id = id
        self.amountCents = amountCents
        self.currency = currency
        self.description = description
        self.redirectURL = redirectURL
        self.status = status
        self.refundedCents = refundedCents
        self.metadata = metadata
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// The sandbox provider: Concierge serves the checkout itself and behaves like Mollie's test
/// mode. The checkout page's POST applies the outcome and then takes the webhook's path.
public struct SandboxPaymentProvider: PaymentProvider {
    public let name = "sandbox"
    private let ledger: any SandboxLedger
    private let publicURL: String
    private let clock: any TimeSource

    public init(ledger: any SandboxLedger, publicURL: String, clock: any TimeSource) {
        self.ledger = ledger
        self.publicURL = publicURL
        self.clock = clock
    }

    public func createPayment(_ request: PaymentRequest) async throws -> CreatedPayment {
        let payment = SandboxPayment(
            id: Randomness.identifier(prefix: "sbx"), amountCents: request.amountCents, currency: request.currency,
            description: request.description, redirectURL: request.redirectURL, status: .open, refundedCents: 0,
            metadata: request.metadata, createdAt: clock.now, expiresAt: request.expiresAt)
        try await ledger.insert(payment)
        return CreatedPayment(id: payment.id, checkoutURL: "\(publicURL)/sandbox/checkout/\(payment.id)", status: .open)
    }

    public func fetchPayment(id: String) async throws -> PaymentSnapshot {
        guard let payment = try await ledger.payment(id: id) else {
            throw ConciergeError(
                .upstreamFailed, code: "payment_not_found", message: "The payment \(id) does not exist.")
        }
        return PaymentSnapshot(
            id: payment.id, status: payment.status, amountCents: payment.amountCents,
            refundedCents: payment.refundedCents, metadata: payment.metadata)
    }

    public func cancelPayment(id: String) async throws {
        try await ledger.cancel(id: id)
    }

    public func refundPayment(id: String, amountCents: Int, currency: String, reason: String, idempotencyKey: String)
        async throws -> String
    {
        try await ledger.refundInFull(id: id)
        return "sbx_re_\(idempotencyKey)"
    }

    /// What the checkout page's buttons do: paid, failed or canceled.
    public func completeCheckout(id: String, outcome: PaymentStatus) async throws -> PaymentSnapshot {
        _ = try await ledger.complete(id: id, status: outcome)
        return try await fetchPayment(id: id)
    }

    public func payment(id: String) async throws -> SandboxPayment? {
        try await ledger.payment(id: id)
    }
}
