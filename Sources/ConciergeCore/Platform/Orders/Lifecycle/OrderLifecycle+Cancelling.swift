import Foundation

extension OrderLifecycle {
    /// Cancels an order for its customer (or an operator acting for them). Open: its inventory
    /// goes back at once and its payment is cancelled. Confirmed: the vertical's `terms` decide
    /// what is kept; the order moves first, with the rest owed back in the same commit, and the
    /// refund follows (security review finding 12: refunding first could refund an order that a
    /// racer had moved on). Cancelling a cancelled order answers it as it is.
    public func cancel(
        orderID: String, actor: String, terms: @Sendable (LifecycleOrder) async throws -> CancellationTerms,
        vertical: some OrderVertical
    ) async throws -> LifecycleOrder {
        for _ in 0..<4 {
            guard let order = try await store.order(id: orderID) else { throw ConciergeError.orderWithoutCustomer }
            switch order.status {
            case .held, .awaitingPayment:
                guard
                    let moved = try await apply(
                        OrderTransition(
                            orderID: order.id, from: [.held, .awaitingPayment], to: .cancelled,
                            event: event(order, "cancelled", actor, "before payment; the inventory goes back on sale"),
                            hold: .release), previous: order.status, vertical: vertical)
                else { continue }
                if let payment = order.payment {
                    // Best effort: a payment page left open and paid anyway is refunded on arrival.
                    try? await payments.cancelPayment(id: payment.providerPaymentID)
                }
                return moved
            case .confirmed:
                let paid = order.paidAt == nil ? 0 : (order.payment?.amountCents ?? 0)
                let kept = try await terms(order).kept(of: paid, at: clock.now)
                let back = paid - kept - (order.payment?.refundedCents ?? 0)
                let refund = order.payment.flatMap { payment in
                    back > 0
                        ? OwedRefund(
                            key: OwedRefund.Cause.cancel.key(orderID: order.id), orderID: order.id,
                            paymentID: payment.id, amountCents: back, currency: payment.currency,
                            reason: "\(vertical.label(order)) cancelled", createdAt: clock.now) : nil
                }
                let detail =
                    kept > 0
                    ? "\(Money.formatCHF(max(back, 0))) owed back, kept \(Money.formatCHF(kept)) under the policy"
                    : "\(Money.formatCHF(max(back, 0))) owed back"
                guard
                    let moved = try await apply(
                        OrderTransition(
                            orderID: order.id, from: [.confirmed], to: .cancelled,
                            event: event(order, "cancelled", actor, "\(detail); the inventory goes back on sale"),
                            hold: order.holdID == nil ? nil : .returnSold, owedRefund: refund, chargedCents: kept,
                            notification: try await vertical.message(
                                .cancelled(refundedCents: max(back, 0), keptCents: kept), for: order)),
                        previous: order.status, vertical: vertical)
                else {
                    // The vertical's own state refused (a ride whose chauffeur is on the way), or a
                    // racer moved it: look again.
                    if let now = try await store.order(id: orderID), now.status == .confirmed {
                        throw ConciergeError.orderNotCancellable(now)
                    }
                    continue
                }
                return moved
            case .cancelled:
                return order
            case .expired, .refunded:
                throw ConciergeError.orderNotCancellable(order)
            }
        }
        guard let order = try await store.order(id: orderID) else { throw ConciergeError.orderWithoutCustomer }
        return order
    }
}
