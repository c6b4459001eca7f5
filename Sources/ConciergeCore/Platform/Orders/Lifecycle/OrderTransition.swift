import Foundation

/// One move of an order, written as one transaction: the conditional change of its status, its
/// event, the vertical's own row, the hold, the payment's status, a refund now owed and the
/// customer's message — all of it, or (when the order is no longer in a `from` status, or the
/// refund is owed already) none of it.
public struct OrderTransition: Sendable {
    /// What happens to the order's hold in the same transaction.
    public enum HoldChange: Sendable, Equatable {
        /// A held hold's units go back on sale (cancelled or lapsed before payment).
        case release
        /// A sold hold's units go back on sale (a confirmed order cancelled or refunded).
        case returnSold
    }

    public let orderID: String
    public let from: Set<OrderStatus>
    public let to: OrderStatus
    public let event: OrderEvent
    public var paymentStatus: PaymentStatus?
    /// The payment arrived: sets the order's `paid_at` once.
    public var paid: Bool
    /// Only when no payment was taken as paid before (`paid_at` unset): a payment refunded for
    /// arriving after a cancellation is refunded once, however often the provider says so.
    public var onlyIfUnpaid: Bool
    public var hold: HoldChange?
    public var owedRefund: OwedRefund?
    /// What a cancellation kept (a fee), for the vertical's row.
    public var chargedCents: Int?
    public var notification: OutboxMessage?

    public init(
        orderID: String, from: Set<OrderStatus>, to: OrderStatus, event: OrderEvent,
        paymentStatus: PaymentStatus? = nil,
        paid: Bool = false, onlyIfUnpaid: Bool = false, hold: HoldChange? = nil, owedRefund: OwedRefund? = nil,
        chargedCents: Int? = nil, notification: OutboxMessage? = nil
    ) {
        self.orderID = orderID
        self.from = from
        self.to = to
        self.event = event
        self.paymentStatus = paymentStatus
        self.paid = paid
        self.onlyIfUnpaid = onlyIfUnpaid
        self.hold = hold
        self.owedRefund = owedRefund
        self.chargedCents = chargedCents
        self.notification = notification
    }
}
