import Foundation

/// Events on the platform's order lifecycle: every payment, expiry and cancellation of a seat
/// order is the lifecycle's (`OrderLifecycle`); events brings its words, its cancellation
/// window and its seat-map cache.
extension EventsService: PaymentOwner {
    public var vertical: String { Self.vertical }

    /// The dispatcher's entry, behind webhooks, the return page and the sandbox checkout.
    public func applyPayment(_ snapshot: PaymentSnapshot, record: PaymentRecord) async throws {
        try await lifecycle.paymentReported(snapshot, orderID: record.orderID, vertical: self)
    }

    /// The booking of a checkout, after asking the provider where its payment stands (the return
    /// page may arrive before the webhook).
    public func checkoutResult(sessionID: String) async throws -> EventBooking {
        guard let booking = try await store.booking(sessionID: sessionID) else {
            throw ConciergeError.checkoutNotFound
        }
        if booking.state == .pending, let snapshot = try? await payments.fetchPayment(id: booking.paymentID) {
            try await lifecycle.paymentReported(snapshot, orderID: booking.orderID, vertical: self)
        }
        return try await store.booking(orderID: booking.orderID) ?? booking
    }

    /// Expires unpaid seat orders whose hold lapsed (the lifecycle's expiry, one order at a time).
    @discardableResult
    public func expireLapsedBookings(limit: Int = 100) async throws -> Int {
        try await lifecycle.expireLapsedOrders(of: self, limit: limit)
    }

    /// The customer cancels: before payment the seats go back at once; once paid, free with a
    /// full refund until `cancelHours` before the show, and refused after.
    public func cancel(orderID: String, accountID: String) async throws -> EventBooking {
        let booking = try await booking(orderID: orderID, accountID: accountID)
        guard booking.state != .cancelled else { return booking }
        _ = try await lifecycle.cancel(
            orderID: orderID, actor: "account:\(accountID)", terms: { _ in try await cancellationTerms(booking) },
            vertical: self)
        return try await self.booking(orderID: orderID, accountID: accountID)
    }

    /// The box office gives part of a paid order back (the order and its tickets stand).
    public func refundInPart(orderID: String, cents: Int, reason: String, actor: String) async throws -> Int {
        guard try await store.booking(orderID: orderID) != nil else { throw ConciergeError.eventsBookingNotFound }
        _ = try await lifecycle.refundPart(orderID: orderID, cents: cents, actor: actor, reason: reason, vertical: self)
        return cents
    }

    /// Events' policy: a full refund until `cancelHours` before the show, no cancellation after.
    func cancellationTerms(_ booking: EventBooking) async throws -> CancellationTerms {
        let show = try await show(id: booking.showID).show
        return CancellationTerms(
            freeUntil: show.startsAt.addingTimeInterval(-Double(policy.cancelHours) * 3600),
            afterDeadline: .refuse(
                ConciergeError(
                    .conflict, code: "cancellation_window_closed",
                    message:
                        "Tickets can be cancelled with a refund until \(policy.cancelHours) hours before the show. Please contact the box office."
                )))
    }
}

extension EventsService: OrderVertical {
    public func message(_ notice: OrderNotice, for order: LifecycleOrder) async throws -> OutboxMessage? {
        guard let booking = try await store.booking(orderID: order.id) else { return nil }
        let view = try await view(booking)
        switch notice {
        case .confirmed:
            return EventsMessages.confirmation(view, qrCode: scanPayload(booking), tickets: seatTickets(view))
        case .cancelled: return EventsMessages.cancellation(view)
        case .refundedLate: return EventsMessages.lateRefund(view)
        case .refundedAfterCancel, .refundedMismatch: return EventsMessages.paymentReturned(view)
        case .withdrawn: return EventsMessages.showCancelled(view)
        case .refundedInPart(let cents, let reason):
            return EventsMessages.partialRefund(view, cents: cents, reason: reason)
        }
    }

    /// The seat map follows the move at once on this instance (sold seats show sold, seats that
    /// went back show free), and on the others as soon as they hear of it.
    public func orderMoved(_ order: LifecycleOrder, from previous: OrderStatus) async {
        guard let booking = try? await store.booking(orderID: order.id) else { return }
        if order.status == .confirmed {
            seatStates.mark(showID: booking.showID, seatIDs: booking.tickets.map(\.seatID), as: .sold)
        } else {
            seatStates.forget(showID: booking.showID)
        }
        announceSeatChange(showID: booking.showID)
    }

    public func label(_ order: LifecycleOrder) -> String { "Tickets \(order.reference)" }
}
