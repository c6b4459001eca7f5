import Foundation

extension OrderLifecycle {
    /// Pays every refund owed whose next attempt is due, each on its own: one the provider
    /// refuses waits (30 s, doubling to an hour, kept in the database so every instance and a
    /// restart agree) and the others go on. Returns how many were paid now.
    @discardableResult
    public func settleOwedRefunds(limit: Int = 100) async throws -> Int {
        let now = clock.now
        var count = 0
        for owed in try await store.owedRefunds(due: now, limit: limit) {
            do {
                if try await pay(owed) { count += 1 }
            } catch {
                let pause = min(refundPause.longest, refundPause.first * pow(2, Double(min(owed.attempts, 20))))
                try await store.refundFailed(key: owed.key, retryAt: now.addingTimeInterval(pause))
            }
        }
        return count
    }

    /// Pays what is owed on one order right after the transition that owes it; what fails here
    /// is left to the worker.
    func payOwedRefunds(orderID: String) async {
        guard let owed = try? await store.owedRefunds(orderID: orderID) else { return }
        for (refund, paidAt) in owed where paidAt == nil {
            do {
                _ = try await pay(refund)
            } catch {
                let retryAt = clock.now.addingTimeInterval(refundPause.first)
                try? await store.refundFailed(key: refund.key, retryAt: retryAt)
            }
        }
    }

    /// Refunds `owed` at the provider under its key and records it; false when another worker
    /// recorded it first. A refund the provider made before a crash kept us from recording it
    /// is recorded now, without asking the provider again.
    private func pay(_ owed: OwedRefund) async throws -> Bool {
        guard let order = try await store.order(id: owed.orderID), let payment = order.payment,
            payment.id == owed.paymentID
        else {
            throw ConciergeError(
                .unavailable(retryAfterSeconds: nil), code: "refund_payment_missing",
                message: "The payment of refund \(owed.key) is not in the ledger.")
        }
        let snapshot = try await payments.fetchPayment(id: payment.providerPaymentID)
        let providerRefundID: String
        if snapshot.refundedCents >= payment.refundedCents + owed.amountCents {
            providerRefundID = owed.key
        } else {
            providerRefundID = try await payments.refundPayment(
                id: payment.providerPaymentID, amountCents: owed.amountCents, currency: owed.currency,
                reason: owed.reason, idempotencyKey: owed.key)
        }
        return try await store.refundPaid(
            key: owed.key,
            refund: RefundRecord(
                id: random.identifier(prefix: "ref"), paymentID: payment.id, providerRefundID: providerRefundID,
                amountCents: owed.amountCents, currency: owed.currency, reason: owed.reason, createdAt: clock.now))
    }
}
