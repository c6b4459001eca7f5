import Foundation

extension EventsService: PaymentOwner {
    public var vertical: String { Self.vertical }

    /// The one transition behind webhooks, the return page, the sandbox checkout and expiry.
    /// Idempotent: a replay finds the booking moved and changes nothing.
    public func applyPayment(_ snapshot: PaymentSnapshot, record: PaymentRecord) async throws {
        guard let booking = try await store.booking(orderID: record.orderID) else { return }
        try await apply(snapshot, to: booking)
    }

    func apply(_ snapshot: PaymentSnapshot, to booking: EventBooking) async throws {
        let now = clock.now
        let actor = "provider:\(booking.paymentProvider)"
        guard snapshot.status == .paid else {
            guard [.failed, .canceled, .expired].contains(snapshot.status), booking.state == .pending else { return }
            let moved = try await store.apply(
                EventTransition(
                    orderID: booking.orderID, from: [.pending], to: snapshot.status == .expired ? .expired : .cancelled,
                    event: event(
                        booking, now, "payment_\(snapshot.status.rawValue)", actor, "the seats go back on sale"),
                    paymentStatus: snapshot.status))
            if moved != nil {
                _ = try await holds.release(id: booking.holdID, now: now)
                seatStates.forget(showID: booking.showID)
            }
            return
        }
        guard [.pending, .expired].contains(booking.state) else { return }
        let decision = try await LatePaymentPolicy(store: holds, clock: clock)
            .paymentArrived(holdID: booking.holdID, orderID: booking.orderID)
        switch decision {
        case .sold(_, let late):
            let view = try await view(booking)
            let confirmed = try await store.apply(
                EventTransition(
                    orderID: booking.orderID, from: [.pending, .expired], to: .confirmed,
                    event: event(
                        booking, now, "confirmed", actor, late ? "paid after the hold lapsed; seats still free" : "paid"
                    ),
                    notification: EventsMessages.confirmation(
                        view, qrCode: scanPayload(booking), tickets: seatTickets(view)), paymentStatus: .paid)
            )
            if confirmed != nil {
                seatStates.mark(showID: booking.showID, seatIDs: booking.tickets.map(\.seatID), as: .sold)
            }
        case .refund:
            let amount = snapshot.amountCents - snapshot.refundedCents
            let reason = "Tickets \(booking.reference.code): paid after the seats went to someone else"
            let refundID = try await payments.refundPayment(
                id: booking.paymentID, amountCents: amount, currency: booking.currency, reason: reason,
                idempotencyKey: "late-\(booking.orderID)")
            let view = try await view(booking)
            _ = try await store.apply(
                EventTransition(
                    orderID: booking.orderID, from: [.pending, .expired], to: .refunded,
                    event: event(booking, now, "refunded", "system", "paid after the hold lapsed; refunded in full"),
                    notification: EventsMessages.lateRefund(view),
                    refund: refund(booking, providerRefundID: refundID, amount: amount, reason: reason, now: now),
                    paymentStatus: .paid))
        }
    }

    /// The booking of a checkout, after asking the provider where its payment stands (the return
    /// page may arrive before the webhook).
    public func checkoutResult(sessionID: String) async throws -> EventBooking {
        guard let booking = try await store.booking(sessionID: sessionID) else {
            throw ConciergeError.checkoutNotFound
        }
        if booking.state == .pending, let snapshot = try? await payments.fetchPayment(id: booking.paymentID) {
            try await apply(snapshot, to: booking)
        }
        return try await store.booking(orderID: booking.orderID) ?? booking
    }

    // MARK: Expiry

    /// Expires unpaid bookings whose hold lapsed, gives their seats back and cancels their
    /// payment. A payment that did arrive (a lost webhook) takes the late-payment path instead.
    @discardableResult
    public func expireLapsedBookings(limit: Int = 100) async throws -> Int {
        var count = 0
        for booking in try await store.lapsedPendingBookings(now: clock.now, limit: limit) {
            if let snapshot = try? await payments.fetchPayment(id: booking.paymentID), snapshot.status == .paid {
                try await apply(snapshot, to: booking)
                continue
            }
            let now = clock.now
            let moved = try await store.apply(
                EventTransition(
                    orderID: booking.orderID, from: [.pending], to: .expired,
                    event: event(booking, now, "expired", "system", "unpaid when the hold lapsed")))
            guard moved != nil else { continue }
            count += 1
            _ = try await holds.release(id: booking.holdID, now: now)
            seatStates.forget(showID: booking.showID)
            try? await payments.cancelPayment(id: booking.paymentID)
        }
        return count
    }

    // MARK: Cancelling

    /// The customer cancels: before payment the seats go back at once; once paid, free with a
    /// full refund until `cancelHours` before the show.
    public func cancel(orderID: String, accountID: String) async throws -> EventBooking {
        let booking = try await booking(orderID: orderID, accountID: accountID)
        let now = clock.now
        let actor = "account:\(accountID)"
        switch booking.state {
        case .pending:
            if try await store.apply(
                EventTransition(
                    orderID: orderID, from: [.pending], to: .cancelled,
                    event: event(booking, now, "cancelled", actor, "before payment"))) != nil
            {
                _ = try await holds.release(id: booking.holdID, now: now)
                seatStates.forget(showID: booking.showID)
                try? await payments.cancelPayment(id: booking.paymentID)
            }
        case .confirmed:
            let show = try await show(id: booking.showID).show
            let deadline = show.startsAt.addingTimeInterval(-Double(policy.cancelHours) * 3600)
            guard now <= deadline else {
                throw ConciergeError(
                    .conflict, code: "cancellation_window_closed",
                    message:
                        "Tickets can be cancelled with a refund until \(policy.cancelHours) hours before the show. Please contact the box office."
                )
            }
            let reason = "Tickets \(booking.reference.code) cancelled by the customer"
            let refundID = try await payments.refundPayment(
                id: booking.paymentID, amountCents: booking.amountCents, currency: booking.currency, reason: reason,
                idempotencyKey: "cancel-\(booking.orderID)")
            let view = try await view(booking)
            _ = try await store.apply(
                EventTransition(
                    orderID: orderID, from: [.confirmed], to: .cancelled,
                    event: event(booking, now, "cancelled", actor, "refunded in full; seats back on sale"),
                    notification: EventsMessages.cancellation(view),
                    refund: refund(
                        booking, providerRefundID: refundID, amount: booking.amountCents, reason: reason, now: now),
                    returnSoldSeats: true))
            seatStates.forget(showID: booking.showID)
        case .cancelled:
            break
        case .refunded, .expired:
            throw ConciergeError(
                .conflict, code: "not_cancellable", message: "This booking is \(booking.state.rawValue) already.")
        }
        return try await self.booking(orderID: orderID, accountID: accountID)
    }

    // MARK: Helpers

    private func event(_ booking: EventBooking, _ now: Date, _ type: String, _ actor: String, _ detail: String)
        -> OrderEvent
    {
        OrderEvent(orderID: booking.orderID, at: now, type: type, actor: actor, detail: detail)
    }

    private func refund(_ booking: EventBooking, providerRefundID: String, amount: Int, reason: String, now: Date)
        -> RefundRecord
    {
        RefundRecord(
            id: random.identifier(prefix: "ref"), paymentID: booking.paymentRecordID,
            providerRefundID: providerRefundID,
            amountCents: amount, currency: booking.currency, reason: reason, createdAt: now)
    }
}
