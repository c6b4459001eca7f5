import Foundation

extension OrderLifecycle {
    /// What a provider says about the payment of `orderID` — from a webhook, a return page, the
    /// sandbox checkout or the expiry worker asking. Idempotent: deliveries repeat and race, and
    /// a replay finds the order moved and writes nothing.
    public func paymentReported(_ snapshot: PaymentSnapshot, orderID: String, vertical: some OrderVertical)
        async throws
    {
        // A racer that moved the order between our read and our write makes the write come back
        // empty; the decision is taken again on what it left (a few rounds settle any race).
        for _ in 0..<4 {
            guard let order = try await store.order(id: orderID) else { return }
            switch try await decide(snapshot, order, vertical: vertical) {
            case .settled: return
            case .lostRace: continue
            }
        }
    }

    private enum Outcome {
        case settled
        case lostRace
    }

    private func decide(_ snapshot: PaymentSnapshot, _ order: LifecycleOrder, vertical: some OrderVertical)
        async throws -> Outcome
    {
        let actor = "provider:\(payments.name)"
        guard snapshot.status == .paid else {
            // Failed, cancelled or expired at the provider while open: the inventory goes back.
            guard [.failed, .canceled, .expired].contains(snapshot.status), order.status.isOpen else {
                try await store.recordPaymentStatus(order, snapshot.status, at: clock.now)
                return .settled
            }
            let moved = try await apply(
                OrderTransition(
                    orderID: order.id, from: [.held, .awaitingPayment],
                    to: snapshot.status == .expired ? .expired : .cancelled,
                    event: event(
                        order, "payment_\(snapshot.status.rawValue)", actor, "the payment did not go through"),
                    paymentStatus: snapshot.status, hold: .release), previous: order.status, vertical: vertical)
            return moved == nil ? .lostRace : .settled
        }
        // Paid. The server opened this payment for the order's total: any other amount or
        // currency is never taken as payment for it (security review finding 30), it goes back.
        if snapshot.amountCents != order.amountCents || (snapshot.currency.map { $0 != order.currency } ?? false) {
            return try await refundMismatch(snapshot, order, vertical: vertical)
        }
        guard order.paidAt == nil else {
            return .settled  // paid before: a repeated delivery
        }
        switch order.status {
        case .held, .awaitingPayment, .expired:
            return try await sell(snapshot, order, actor: actor, vertical: vertical)
        case .cancelled, .refunded:
            // Paid on a checkout still open after the order was cancelled (Mollie cannot cancel
            // most methods; Stripe can race its expiry): nothing was bought, all of it goes back
            // (finding 4). A hold the payment just sold in a race goes back on sale with it.
            let notice = try await vertical.message(.refundedAfterCancel, for: order)
            let moved = try await apply(
                OrderTransition(
                    orderID: order.id, from: [order.status], to: order.status,
                    event: event(order, "refunded", "system", "paid after the order was \(order.status.rawValue)"),
                    paymentStatus: .paid, paid: true, onlyIfUnpaid: true,
                    hold: order.holdID == nil ? nil : .returnSold,
                    owedRefund: owedInFull(
                        order, .cancelled, paidCents: snapshot.amountCents, refundedCents: snapshot.refundedCents,
                        why: "paid after the order was \(order.status.rawValue)", vertical: vertical),
                    notification: notice), previous: order.status, vertical: vertical)
            return moved == nil ? .lostRace : .settled
        case .confirmed:
            return .settled
        }
    }

    /// A paid order that is still open or lapsed: sold when its inventory can still be had,
    /// refunded in full when it went to someone else.
    private func sell(_ snapshot: PaymentSnapshot, _ order: LifecycleOrder, actor: String, vertical: some OrderVertical)
        async throws -> Outcome
    {
        let now = clock.now
        let sold: Bool
        var late = order.status == .expired || order.expiresAt.map { now >= $0 } ?? false
        if let holdID = order.holdID {
            switch try await LatePaymentPolicy(store: holds, clock: clock).paymentArrived(
                holdID: holdID, orderID: order.id)
            {
            case .sold(_, let lapsed):
                sold = true
                late = lapsed
            case .refund: sold = false
            }
        } else if late {
            sold = try await vertical.canStillBeMade(order, now: now)
        } else {
            sold = true
        }
        if sold {
            let confirmed = try await apply(
                OrderTransition(
                    orderID: order.id, from: [.held, .awaitingPayment, .expired], to: .confirmed,
                    event: event(
                        order, "confirmed", actor,
                        late ? "paid after the hold lapsed; the order could still be made" : "paid"),
                    paymentStatus: .paid, paid: true, onlyIfUnpaid: true,
                    notification: try await vertical.message(.confirmed(late: late), for: order)),
                previous: order.status, vertical: vertical)
            // Cancelled while the payment was being sold: the next round refunds it and puts the
            // units the sale just took back on sale.
            return confirmed == nil ? .lostRace : .settled
        }
        let refunded = try await apply(
            OrderTransition(
                orderID: order.id, from: [.held, .awaitingPayment, .expired], to: .refunded,
                event: event(order, "refunded", "system", "paid after the hold lapsed; refunded in full"),
                paymentStatus: .paid, paid: true, onlyIfUnpaid: true,
                hold: order.holdID == nil ? nil : .release,
                owedRefund: owedInFull(
                    order, .late, paidCents: snapshot.amountCents, refundedCents: snapshot.refundedCents,
                    why: "paid after the hold lapsed and it could no longer be made", vertical: vertical),
                notification: try await vertical.message(.refundedLate, for: order)),
            previous: order.status, vertical: vertical)
        return refunded == nil ? .lostRace : .settled
    }

    private func refundMismatch(_ snapshot: PaymentSnapshot, _ order: LifecycleOrder, vertical: some OrderVertical)
        async throws -> Outcome
    {
        // An open order cannot be paid by its only payment any more: it ends, and its units go back.
        let to: OrderStatus = order.status.isOpen ? .cancelled : order.status
        let paid = "\(Money.formatCHF(snapshot.amountCents)) \(snapshot.currency ?? order.currency)"
        let owed = "\(Money.formatCHF(order.amountCents)) \(order.currency)"
        guard
            let refund = owedInFull(
                order, .mismatch, paidCents: snapshot.amountCents, refundedCents: snapshot.refundedCents,
                why: "paid \(paid) where the order costs \(owed)", vertical: vertical)
        else { return .settled }
        let moved = try await apply(
            OrderTransition(
                orderID: order.id, from: [order.status], to: to,
                event: event(
                    order, "payment_mismatch", "system", "paid \(paid) where the order costs \(owed); refunded"),
                hold: order.status.isOpen && order.holdID != nil ? .release : nil, owedRefund: refund,
                notification: try await vertical.message(.refundedMismatch, for: order)),
            previous: order.status, vertical: vertical)
        // Nil also when the refund was owed already (a repeated delivery): nothing more to do.
        if moved == nil, let now = try await store.order(id: order.id), now.status != order.status { return .lostRace }
        return .settled
    }
}
