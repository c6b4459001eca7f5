public import Foundation

/// The one lifecycle of every order, whatever it sells: held → awaiting payment → confirmed →
/// cancelled | expired | refunded. Webhooks and return pages (`paymentReported`), the expiry
/// worker (`expireLapsedOrders`), customers and operators (`cancel`) and the refund worker
/// (`settleOwedRefunds`) all move orders through here, so each money rule is written once:
/// - a payment on an order that was cancelled or ended is refunded in full, once;
/// - a late payment is honoured while the inventory can still be had, and refunded otherwise;
/// - a payment of another amount never confirms: it is refunded;
/// - money goes back only after the order moved (the refund is owed in the same commit) and is
///   paid by the worker under one idempotency key, never twice;
/// - orders and refunds are settled one by one, each with its own backoff.
/// Verticals bring their words and their cancellation terms (`OrderVertical`).
public struct OrderLifecycle: Sendable {
    let store: any OrderLifecycleStore
    let holds: any HoldStore
    let payments: any PaymentProvider
    let clock: any TimeSource
    let random: any RandomSource
    /// Per order, in memory: an order the provider keeps refusing waits, the others go on.
    let expiryBackoff: RetryBackoff
    /// How long the refund worker waits after the n-th failure of one refund (doubling).
    let refundPause: (first: TimeInterval, longest: TimeInterval)

    public init(
        store: any OrderLifecycleStore, holds: any HoldStore, payments: any PaymentProvider, clock: any TimeSource,
        random: any RandomSource, refundPause: (first: TimeInterval, longest: TimeInterval) = (30, 3600)
    ) {
        self.store = store
        self.holds = holds
        self.payments = payments
        self.clock = clock
        self.random = random
        self.expiryBackoff = RetryBackoff()
        self.refundPause = refundPause
    }

    public func order(id: String) async throws -> LifecycleOrder? {
        try await store.order(id: id)
    }

    /// Applies `transition` and tells the vertical; nil when the order had moved on.
    func apply(_ transition: OrderTransition, previous: OrderStatus, vertical: some OrderVertical) async throws
        -> LifecycleOrder?
    {
        guard let moved = try await store.apply(transition) else { return nil }
        await vertical.orderMoved(moved, from: previous)
        if transition.owedRefund != nil { await payOwedRefunds(orderID: moved.id) }
        return moved
    }

    func event(_ order: LifecycleOrder, _ type: String, _ actor: String, _ detail: String) -> OrderEvent {
        OrderEvent(orderID: order.id, at: clock.now, type: type, actor: actor, detail: detail)
    }

    /// The refund of everything still unrefunded of the order's payment, owed from this commit.
    func owedInFull(
        _ order: LifecycleOrder, _ cause: OwedRefund.Cause, paidCents: Int, refundedCents: Int, why: String,
        vertical: some OrderVertical
    ) -> OwedRefund? {
        guard let payment = order.payment, paidCents - refundedCents > 0 else { return nil }
        return OwedRefund(
            key: cause.key(orderID: order.id), orderID: order.id, paymentID: payment.id,
            amountCents: paidCents - refundedCents, currency: payment.currency,
            reason: "\(vertical.label(order)): \(why)", createdAt: clock.now)
    }
}

extension ConciergeError {
    static func orderNotCancellable(_ order: LifecycleOrder) -> ConciergeError {
        ConciergeError(
            .conflict, code: "not_cancellable",
            message:
                "This order is \(order.verticalState.replacingOccurrences(of: "_", with: " ")) and can no longer be cancelled."
        )
    }
}
