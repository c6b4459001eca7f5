public import Foundation

/// The sandbox checkout's view of the platform payments ledger: its payments are `payments`
/// rows with provider "sandbox", so every instance sees them and they have no other record.
public protocol SandboxLedger: Sendable {
    func payment(id: String) async throws -> PaymentRecord?
    /// Moves an open payment to `status`; false when it was no longer open.
    func complete(id: String, status: PaymentStatus) async throws -> Bool
    /// Cancels an open payment; succeeds quietly when it is already final or was never recorded.
    func cancel(id: String) async throws
    /// Refunds `amountCents` of a paid payment (never more than is left) and returns what was
    /// refunded; the same `idempotencyKey` again refunds nothing more and returns the first
    /// amount. A payment that is not paid is refunded nothing (0).
    func refund(id: String, amountCents: Int, idempotencyKey: String, at: Date) async throws -> Int
}

/// The sandbox provider: Concierge serves the checkout itself and behaves like Mollie's test
/// mode. The checkout page's POST applies the outcome and then takes the webhook's path.
///
/// Opening a payment draws an id and a checkout URL and writes nothing: the payment comes into
/// being as the ledger row its owner writes in the order's own transaction. A booking and its
/// sandbox payment are therefore one durable commit, and neither can exist without the other.
public struct SandboxPaymentProvider: PaymentProvider {
    public let name = "sandbox"
    public let opensPaymentsLocally = true
    private let ledger: any SandboxLedger
    private let publicURL: String
    private let random: any RandomSource
    private let clock: any TimeSource

    public init(ledger: any SandboxLedger, publicURL: String, random: any RandomSource, clock: any TimeSource) {
        self.ledger = ledger
        self.publicURL = publicURL
        self.random = random
        self.clock = clock
    }

    public func createPayment(_ request: PaymentRequest) async throws -> CreatedPayment {
        let id = random.identifier(prefix: "sbx")
        return CreatedPayment(id: id, checkoutURL: "\(publicURL)/sandbox/checkout/\(id)", status: .open)
    }

    public func fetchPayment(id: String) async throws -> PaymentSnapshot {
        guard let payment = try await ledger.payment(id: id) else {
            throw ConciergeError(
                .upstreamFailed, code: "payment_not_found", message: "The payment \(id) does not exist.")
        }
        return PaymentSnapshot(
            id: payment.providerPaymentID, status: payment.status, amountCents: payment.amountCents,
            refundedCents: payment.refundedCents, metadata: payment.metadata)
    }

    public func cancelPayment(id: String) async throws {
        try await ledger.cancel(id: id)
    }

    public func refundPayment(id: String, amountCents: Int, currency: String, reason: String, idempotencyKey: String)
        async throws -> String
    {
        _ = try await ledger.refund(id: id, amountCents: amountCents, idempotencyKey: idempotencyKey, at: clock.now)
        return "sbx_re_\(idempotencyKey)"
    }

    /// What the checkout page's buttons do: paid, failed or canceled.
    public func completeCheckout(id: String, outcome: PaymentStatus) async throws -> PaymentSnapshot {
        _ = try await ledger.complete(id: id, status: outcome)
        return try await fetchPayment(id: id)
    }

    public func payment(id: String) async throws -> PaymentRecord? {
        try await ledger.payment(id: id)
    }
}
