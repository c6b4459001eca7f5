import Foundation

extension OrderLifecycle {
    /// Expires `vertical`'s orders still awaiting payment whose time ran out: their inventory
    /// goes back and their payment is cancelled. A payment that did arrive (a lost webhook, a
    /// crash between checkout and transition) takes the payment path instead: confirmed, or
    /// refunded. Each order is settled on its own: one that fails (its provider refuses, or is
    /// down) waits with a growing pause and the others go on (security review finding 5).
    @discardableResult
    public func expireLapsedOrders(of vertical: some OrderVertical, limit: Int = 100) async throws -> Int {
        let now = clock.now
        let pausing = await expiryBackoff.pausedCount(now: now)
        var count = 0
        for order in try await store.lapsedOrders(vertical: vertical.vertical, now: now, limit: limit + pausing) {
            guard await expiryBackoff.isDue(order.id, now: now) else { continue }
            do {
                if try await expire(order, vertical: vertical) { count += 1 }
                await expiryBackoff.succeeded(order.id)
            } catch {
                await expiryBackoff.failed(order.id, now: now)
            }
        }
        return count
    }

    /// Expires one order if its time ran out; true when this call expired it.
    @discardableResult
    public func expireIfLapsed(orderID: String, vertical: some OrderVertical) async throws -> Bool {
        guard let order = try await store.order(id: orderID), order.status.isOpen,
            let expiresAt = order.expiresAt, clock.now >= expiresAt
        else { return false }
        return try await expire(order, vertical: vertical)
    }

    private func expire(_ order: LifecycleOrder, vertical: some OrderVertical) async throws -> Bool {
        if let payment = order.payment,
            let snapshot = try? await payments.fetchPayment(id: payment.providerPaymentID), snapshot.status == .paid
        {
            try await paymentReported(snapshot, orderID: order.id, vertical: vertical)
            return false
        }
        guard
            try await apply(
                OrderTransition(
                    orderID: order.id, from: [.held, .awaitingPayment], to: .expired,
                    event: event(order, "expired", "system", "unpaid when the hold lapsed"), hold: .release),
                previous: order.status, vertical: vertical) != nil
        else { return false }
        if let payment = order.payment {
            // Best effort: a payment that still arrives takes the late-payment path.
            try? await payments.cancelPayment(id: payment.providerPaymentID)
        }
        return true
    }
}
