public import Foundation

/// What the lifecycle tells a customer about their order; the vertical words it.
public enum OrderNotice: Sendable, Equatable {
    /// Paid and confirmed; `late` when the payment came after the hold lapsed.
    case confirmed(late: Bool)
    /// Cancelled after payment: what goes back and what the policy kept.
    case cancelled(refundedCents: Int, keptCents: Int)
    /// Paid after the hold lapsed and the inventory went to someone else: refunded in full.
    case refundedLate
    /// Paid after the order was cancelled (or had ended): nothing was bought, refunded in full.
    case refundedAfterCancel
    /// Paid an amount or currency other than the order's: refunded in full.
    case refundedMismatch
    /// Withdrawn by the operator (a cancelled show): refunded in full.
    case withdrawn(refundedCents: Int)
    /// Part of the payment given back by an operator; the order stands.
    case refundedInPart(cents: Int, reason: String)
}

/// What a selling vertical brings to the platform's lifecycle: its words to the customer, its
/// rule for a late sale of an order that has no hold, and what it does when an order moved. The
/// rules themselves — which transition, which refund, when — are the lifecycle's alone.
public protocol OrderVertical: Sendable {
    /// The vertical's name, as in `Order.vertical`.
    var vertical: String { get }
    /// The message for `notice`, or nil when the vertical sends none for it.
    func message(_ notice: OrderNotice, for order: LifecycleOrder) async throws -> OutboxMessage?
    /// For an order without a hold whose payment arrived after it lapsed: whether it can still
    /// be made (a ride: the pickup is still far enough ahead). Orders with a hold are decided by
    /// the hold (`LatePaymentPolicy`).
    func canStillBeMade(_ order: LifecycleOrder, now: Date) async throws -> Bool
    /// Called after the lifecycle moved one of the vertical's orders (e.g. to forget cached seat
    /// states). Must not throw: the move is committed.
    func orderMoved(_ order: LifecycleOrder, from previous: OrderStatus) async
    /// The start of refund reasons on the customer's statement: "Tickets EVT-12AB".
    func label(_ order: LifecycleOrder) -> String
}

extension OrderVertical {
    public func canStillBeMade(_ order: LifecycleOrder, now: Date) async throws -> Bool {
        order.expiresAt.map { now < $0 } ?? true
    }

    public func orderMoved(_ order: LifecycleOrder, from previous: OrderStatus) async {}

    public func label(_ order: LifecycleOrder) -> String { "Order \(order.reference)" }
}
