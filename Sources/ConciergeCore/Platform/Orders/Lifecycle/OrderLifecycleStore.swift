public import Foundation

/// Where the lifecycle reads orders and writes their transitions. Every write is one
/// transaction of conditional changes, so two instances racing on one order cannot both win.
public protocol OrderLifecycleStore: Sendable {
    func order(id: String) async throws -> LifecycleOrder?
    /// Applies `transition` when the order is in one of its `from` statuses (and the vertical's
    /// own row agrees, and its refund is not owed already): the order as it is now (without its
    /// payment, which the caller read), or nil when nothing was written.
    func apply(_ transition: OrderTransition) async throws -> LifecycleOrder?
    /// Orders of `vertical` still awaiting payment whose time ran out at `now`, oldest first.
    func lapsedOrders(vertical: String, now: Date, limit: Int) async throws -> [LifecycleOrder]
    /// Refunds owed and not paid yet whose next attempt is due at `now`, oldest first.
    func owedRefunds(due now: Date, limit: Int) async throws -> [OwedRefund]
    /// Every refund owed on an order, paid or not.
    func owedRefunds(orderID: String) async throws -> [(refund: OwedRefund, paidAt: Date?)]
    /// Records the refund the provider made and marks the owed refund paid, once: false when
    /// it was paid already (another worker got there first).
    func refundPaid(key: String, refund: RefundRecord) async throws -> Bool
    /// Records a failed attempt: the worker tries again from `retryAt`.
    func refundFailed(key: String, retryAt: Date) async throws
    func recordPaymentStatus(paymentID: String, status: PaymentStatus) async throws
}

extension OrderLifecycleStore {
    /// Records what the provider says of a payment that moves nothing (open, pending): the
    /// ledger follows the provider, the order stays.
    public func recordPaymentStatus(_ order: LifecycleOrder, _ status: PaymentStatus, at now: Date) async throws {
        guard let payment = order.payment, payment.status != status, order.paidAt == nil else { return }
        try await recordPaymentStatus(paymentID: payment.id, status: status)
    }
}
