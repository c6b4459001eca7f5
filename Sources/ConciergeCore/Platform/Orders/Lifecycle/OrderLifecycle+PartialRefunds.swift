import Foundation

extension OrderLifecycle {
    /// Gives part of a paid order's money back without ending it (a goodwill refund, a seat that
    /// could not be used): the order keeps its status, the refund is owed in the same commit as
    /// its event and paid like every other, and never more is owed back than was paid — the
    /// store refuses the transition that would. The `n`-th partial refund of an order has the key
    /// `partial-<order>-<n>`, so a repeated request asks the provider once.
    public func refundPart(
        orderID: String, cents: Int, actor: String, reason: String, vertical: some OrderVertical
    ) async throws -> LifecycleOrder {
        guard cents > 0 else {
            throw ConciergeError(
                .invalidInput, code: "invalid_amount", message: "A refund must be at least 0.01, not \(cents) cents.")
        }
        for _ in 0..<4 {
            guard let order = try await store.order(id: orderID) else { throw ConciergeError.orderWithoutCustomer }
            guard let payment = order.payment, order.paidAt != nil, [.confirmed, .cancelled].contains(order.status)
            else {
                throw ConciergeError(
                    .conflict, code: "not_refundable",
                    message: "Only a paid order can be refunded in part; this one is \(order.status.rawValue).")
            }
            let owed = try await store.owedRefunds(orderID: orderID)
            let left = payment.amountCents - owed.reduce(0) { $0 + $1.refund.amountCents }
            guard cents <= left else {
                throw ConciergeError(
                    .conflict, code: "refund_exceeds_payment",
                    message:
                        "At most \(Money.formatCHF(max(left, 0))) of this order can still be refunded; \(Money.formatCHF(cents)) is more."
                )
            }
            let partials = owed.filter { $0.refund.key.hasPrefix("partial-") }.count
            let refund = OwedRefund(
                key: "partial-\(order.id)-\(partials + 1)", orderID: order.id, paymentID: payment.id,
                amountCents: cents, currency: payment.currency, reason: "\(vertical.label(order)): \(reason)",
                createdAt: clock.now)
            if let moved = try await apply(
                OrderTransition(
                    orderID: order.id, from: [order.status], to: order.status,
                    event: event(order, "refunded_in_part", actor, "\(Money.formatCHF(cents)) owed back: \(reason)"),
                    owedRefund: refund,
                    notification: try await vertical.message(.refundedInPart(cents: cents, reason: reason), for: order)
                ), previous: order.status, vertical: vertical)
            {
                return moved
            }
        }
        throw ConciergeError(
            .unavailable(retryAfterSeconds: 1), code: "order_busy",
            message: "The order changed while the refund was being recorded. Please try again.")
    }
}
