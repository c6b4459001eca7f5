public import Foundation

/// Where a payment stands at the provider, in Mollie's vocabulary (Stripe's states map onto it).
public enum PaymentStatus: String, Sendable, Codable, CaseIterable {
    /// Created; the customer has not finished the checkout.
    case open
    /// The customer finished; the money is on its way (some methods take time).
    case pending
    case authorized
    case paid
    case failed
    case canceled
    case expired
}

/// What Concierge asks a provider to collect.
public struct PaymentRequest: Sendable, Equatable {
    public let amountCents: Int
    /// ISO 4217, "CHF".
    public let currency: String
    /// Shown to the customer at checkout; carries the booking reference.
    public let description: String
    /// Where the customer's browser returns after the checkout.
    public let redirectURL: String
    /// Where the provider reports status changes (absent for the sandbox).
    public let webhookURL: String
    /// The checkout should not accept a payment after this.
    public let expiresAt: Date
    /// Echoed back by the provider, e.g. ["bookingReference": "VRM-1234"].
    public let metadata: [String: String]

    public init(
        amountCents: Int, currency: String, description: String, redirectURL: String, webhookURL: String,
        expiresAt: Date, metadata: [String: String]
    ) {
        self.amountCents = amountCents
        self.currency = currency
        self.description = description
        self.redirectURL = redirectURL
        self.webhookURL = webhookURL
        self.expiresAt = expiresAt
        self.metadata = metadata
    }
}

/// A payment as the provider created it.
public struct CreatedPayment: Sendable, Equatable {
    /// The provider's ID (`tr_…` at Mollie, `cs_…` at Stripe, `sbx_…` in the sandbox).
    public let id: String
    /// The hosted page where the customer pays.
    public let checkoutURL: String
    public let status: PaymentStatus

    public init(id: String, checkoutURL: String, status: PaymentStatus) {
        self.id = id
        self.checkoutURL = checkoutURL
        self.status = status
    }
}

/// A payment's current state at the provider.
public struct PaymentSnapshot: Sendable, Equatable {
    public let id: String
    public let status: PaymentStatus
    public let amountCents: Int
    /// How much has been refunded so far.
    public let refundedCents: Int
    public let metadata: [String: String]
    /// ISO 4217 as the provider reports it; nil where the provider's answer has none.
    public let currency: String?

    public init(
        id: String, status: PaymentStatus, amountCents: Int, refundedCents: Int, metadata: [String: String],
        currency: String? = nil
    ) {
        self.id = id
        self.status = status
        self.amountCents = amountCents
        self.refundedCents = refundedCents
        self.metadata = metadata
        self.currency = currency
    }
}

/// A payment provider: the sandbox checkout, Mollie or Stripe. Errors are `ConciergeError`s:
/// `.unavailable` when retrying later can succeed, `.upstreamFailed` otherwise.
public protocol PaymentProvider: Sendable {
    /// "sandbox", "mollie" or "stripe"; stored with each payment.
    var name: String { get }
    /// Opens a payment. The caller records it in the platform ledger (`payments`) in the same
    /// transaction as its order, and cancels it if that transaction fails.
    func createPayment(_ request: PaymentRequest) async throws -> CreatedPayment
    func fetchPayment(id: String) async throws -> PaymentSnapshot
    /// Stops an unpaid payment from being completed. Succeeds when it is already final.
    func cancelPayment(id: String) async throws
    /// Returns the provider's refund ID. `idempotencyKey` makes a retried refund refund once.
    func refundPayment(id: String, amountCents: Int, currency: String, reason: String, idempotencyKey: String)
        async throws -> String
    /// True when opening a payment writes nothing outside Concierge's own database (the
    /// sandbox): the payment is then only the ledger row, and a booking can claim its key, write
    /// itself and its payment in one transaction. Outside providers are called before that
    /// commit, so a key is claimed first, on its own, to keep repeats from opening a second payment.
    var opensPaymentsLocally: Bool { get }
}

extension PaymentProvider {
    public var opensPaymentsLocally: Bool { false }
}
