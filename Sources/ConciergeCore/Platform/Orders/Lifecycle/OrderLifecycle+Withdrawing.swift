import Foundation

extension OrderLifecycle {
    /// What withdrawing an order did.
    public enum Withdrawal: Sendable, Equatable {
        /// It was paid: everything paid is owed back, and the inventory went back on sale.
        case refunded(cents: Int)
        /// It was open: cancelled, its inventory back on sale, its payment stopped.
        case released
        /// It had ended already (or a racer ended it): nothing changed.
        case unchanged
    }

    /// The operator takes an order back whatever the customer's policy says (a cancelled show,
    /// a closed room): a paid order is refunded in full, an open one cancelled. Safe to repeat:
    /// each order moves once.
    public func withdraw(orderID: String, actor: String, why: String, vertical: some OrderVertical) async throws
        -> Withdrawal
    {
        guard let order = try await store.order(id: orderID) else { return .unchanged }
        switch order.status {
        case .held, .awaitingPayment:
            guard
                try await apply(
                    OrderTransition(
                        orderID: order.id, from: [.held, .awaitingPayment], to: .cancelled,
                        event: event(order, "cancelled", actor, "\(why) before payment"), hold: .release),
                    previous: order.status, vertical: vertical) != nil
            else { return .unchanged }
            if let payment = order.payment { try? await payments.cancelPayment(id: payment.providerPaymentID) }
            return .released
        case .confirmed:
            let paid = order.paidAt == nil ? 0 : (order.payment?.amountCents ?? 0)
            let back = paid - (order.payment?.refundedCents ?? 0)
            guard
                try await apply(
                    OrderTransition(
                        orderID: order.id, from: [.confirmed], to: .refunded,
                        event: event(order, "refunded", actor, "\(why); refunded in full"),
                        hold: order.holdID == nil ? nil : .returnSold,
                        owedRefund: owedInFull(
                            order, .cancel, paidCents: paid, refundedCents: order.payment?.refundedCents ?? 0,
                            why: why, vertical: vertical),
                        notification: try await vertical.message(.withdrawn(refundedCents: max(back, 0)), for: order)),
                    previous: order.status, vertical: vertical) != nil
            else { return .unchanged }
            return .refunded(cents: max(back, 0))
        case .cancelled, .expired, .refunded:
            return .unchanged
        }
    }
}
