public import Foundation

/// Money the platform owes back on a payment, written in the transaction that moved the order
/// (so the order moves first, and the money follows) and paid by the refund worker under its
/// `key`: the provider's idempotency key, the same on every attempt, unique per order and cause.
public struct OwedRefund: Sendable, Equatable {
    /// `cancel-<order>`, `late-<order>`, `cancelled-<order>` or `mismatch-<order>`.
    public let key: String
    public let orderID: String
    /// The ledger id of the payment to refund.
    public let paymentID: String
    public let amountCents: Int
    public let currency: String
    /// Shown on the customer's statement where the provider allows.
    public let reason: String
    public let createdAt: Date
    /// How many times paying it failed so far, and when the worker may try again.
    public let attempts: Int
    public let nextAttemptAt: Date

    public init(
        key: String, orderID: String, paymentID: String, amountCents: Int, currency: String, reason: String,
        createdAt: Date, attempts: Int = 0, nextAttemptAt: Date? = nil
    ) {
        self.key = key
        self.orderID = orderID
        self.paymentID = paymentID
        self.amountCents = amountCents
        self.currency = currency
        self.reason = reason
        self.createdAt = createdAt
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt ?? createdAt
    }

    /// The keys, one per cause, so that one cause never refunds twice.
    public enum Cause: String, Sendable {
        /// The customer (or an operator for them) cancelled a confirmed order.
        case cancel
        /// Paid after the hold lapsed, and the inventory went to someone else.
        case late
        /// Paid after the order was cancelled, expired for good or refunded.
        case cancelled
        /// Paid an amount or currency other than the order's.
        case mismatch

        public func key(orderID: String) -> String { "\(rawValue)-\(orderID)" }
    }
}
