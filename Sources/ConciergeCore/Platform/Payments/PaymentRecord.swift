public import Foundation

/// A payment in the platform ledger, whichever provider collects it, with its owner: the
/// vertical and order it pays for. Webhooks and return pages find payments here and hand them
/// to the owner. For the sandbox this row is the whole payment: it has no other record.
public struct PaymentRecord: Sendable, Equatable {
    /// The ledger's own id (`pay_…`).
    public let id: String
    /// "sandbox", "mollie" or "stripe".
    public let provider: String
    /// The provider's id (`sbx_…`, `tr_…`, `cs_…`); unique per provider.
    public let providerPaymentID: String
    public let ownerVertical: String
    public let orderID: String
    public let amountCents: Int
    public let currency: String
    public var status: PaymentStatus
    public var refundedCents: Int
    public let checkoutURL: String
    public let description: String
    /// Where the customer's browser returns after the checkout.
    public let redirectURL: String
    public let metadata: [String: String]
    public let expiresAt: Date
    public let createdAt: Date

    public init(
        id: String, provider: String, providerPaymentID: String, ownerVertical: String, orderID: String,
        amountCents: Int, currency: String, status: PaymentStatus, refundedCents: Int, checkoutURL: String,
        description: String, redirectURL: String, metadata: [String: String], expiresAt: Date, createdAt: Date
    ) {
        self.id = id
        self.provider = provider
        self.providerPaymentID = providerPaymentID
        self.ownerVertical = ownerVertical
        self.orderID = orderID
        self.amountCents = amountCents
        self.currency = currency
        self.status = status
        self.refundedCents = refundedCents
        self.checkoutURL = checkoutURL
        self.description = description
        self.redirectURL = redirectURL
        self.metadata = metadata
        self.expiresAt = expiresAt
        self.createdAt = createdAt
    }

    /// The record for a payment a provider just opened for `request`.
    public init(
        id: String, provider: String, created: CreatedPayment, request: PaymentRequest, ownerVertical: String,
        orderID: String, createdAt: Date
    ) {
        self.init(
            id: id, provider: provider, providerPaymentID: created.id, ownerVertical: ownerVertical, orderID: orderID,
            amountCents: request.amountCents, currency: request.currency, status: created.status, refundedCents: 0,
            checkoutURL: created.checkoutURL, description: request.description, redirectURL: request.redirectURL,
            metadata: request.metadata, expiresAt: request.expiresAt, createdAt: createdAt)
    }
}

/// Money given back on a payment, as the provider confirmed it.
public struct RefundRecord: Sendable, Equatable {
    public let id: String
    /// The ledger id of the payment refunded.
    public let paymentID: String
    /// The provider's refund id; recording the same one twice records it once.
    public let providerRefundID: String
    public let amountCents: Int
    public let currency: String
    public let reason: String
    public let createdAt: Date

    public init(
        id: String, paymentID: String, providerRefundID: String, amountCents: Int, currency: String, reason: String,
        createdAt: Date
    ) {
        self.id = id
        self.paymentID = paymentID
        self.providerRefundID = providerRefundID
        self.amountCents = amountCents
        self.currency = currency
        self.reason = reason
        self.createdAt = createdAt
    }
}
