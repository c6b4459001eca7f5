import Foundation

extension BookingService: PaymentOwner {
    public var vertical: String { Self.vertical }

    /// The dispatcher's entry: the ledger says this payment is one of ours.
    public func applyPayment(_ snapshot: PaymentSnapshot, record: PaymentRecord) async throws {
        try await applyPayment(snapshot)
    }

    /// Applies what the provider says about a payment: the one transition behind webhooks, the
    /// return page and the sandbox checkout. Idempotent: a replay finds the state already moved
    /// and changes nothing. Returns the booking, or nil when the payment is not ours.
    @discardableResult
    public func applyPayment(_ snapshot: PaymentSnapshot) async throws -> Booking? {
        guard let booking = try await store.booking(paymentProvider: payments.name, paymentID: snapshot.id) else {
            return nil
        }
        let now = clock.now
        let actor = "provider:\(payments.name)"
        guard snapshot.status == .paid else {
            if booking.paymentStatus != snapshot.status {
                try await store.recordPaymentStatus(bookingID: booking.id, status: snapshot.status)
            }
            return try await store.booking(reference: booking.reference)
        }
        // The server opened this payment for the booking's price; a paid amount that differs is
        // never taken as payment for the ride (security review finding 30): it goes back.
        if snapshot.amountCents != booking.priceCents {
            return try await refundUnowed(
                snapshot, booking, key: "mismatch-\(booking.id)",
                why:
                    "paid \(Money.formatCHF(snapshot.amountCents)) where the ride costs \(Money.formatCHF(booking.priceCents))",
                notify: false)
        }
        switch booking.state {
        case .awaitingPayment where now < booking.quoteExpiresAt, .awaitingPayment where rulesStillHold(booking, now),
            .expired where rulesStillHold(booking, now):
            let late = booking.state == .expired || now >= booking.quoteExpiresAt
            return try await orCurrent(
                store.transition(
                    bookingID: booking.id, from: [.awaitingPayment, .expired], to: .confirmed, paymentStatus: .paid,
                    event: BookingEvent(
                        bookingID: booking.id, at: now, type: "confirmed", actor: actor,
                        detail: late ? "payment arrived after the quote expired; the ride can still be made" : "paid"),
                    notification: confirmation(for: booking), refund: nil), booking)
        case .awaitingPayment, .expired:
            // Paid too late to keep the booking rules: give the money back, and say why. A retry
            // after a crash finds the money already back (finding 5) and only moves the booking.
            let amount = snapshot.amountCents - snapshot.refundedCents
            let reason = "Concierge ride \(booking.reference): paid after the quote expired"
            let refundID =
                amount > 0
                ? try await payments.refundPayment(
                    id: snapshot.id, amountCents: amount, currency: booking.currency, reason: reason,
                    idempotencyKey: "late-\(booking.id)") : nil
            return try await orCurrent(
                store.transition(
                    bookingID: booking.id, from: [.awaitingPayment, .expired], to: .refunded, paymentStatus: .paid,
                    event: BookingEvent(
                        bookingID: booking.id, at: now, type: "refunded", actor: "system",
                        detail:
                            "payment arrived after the quote expired and the pickup is now too soon; refunded in full"),
                    notification: lateRefundNotice(for: booking),
                    refund: refundID.flatMap {
                        refundRecord(booking, providerRefundID: $0, amountCents: amount, reason: reason, now: now)
                    }),
                booking)
        case .cancelled where snapshot.refundedCents < snapshot.amountCents:
            // Paid on a checkout still open after the customer cancelled (Mollie cannot cancel
            // most methods; Stripe can race its expiry): refunded, recorded and told (finding 4).
            return try await refundUnowed(
                snapshot, booking, key: "cancelled-\(booking.id)", why: "paid after the booking was cancelled",
                notify: true)
        default:
            if booking.paymentStatus != snapshot.status {
                try await store.recordPaymentStatus(bookingID: booking.id, status: snapshot.status)
            }
            return booking
        }
    }

    /// Gives back money the booking does not owe, keeps the booking in its state, and writes the
    /// refund, its event and (when `notify`) a notice to the customer in one commit.
    private func refundUnowed(
        _ snapshot: PaymentSnapshot, _ booking: Booking, key: String, why: String, notify: Bool
    ) async throws -> Booking? {
        let amount = snapshot.amountCents - snapshot.refundedCents
        guard amount > 0 else { return booking }
        let reason = "Concierge ride \(booking.reference): \(why)"
        let refundID = try await payments.refundPayment(
            id: snapshot.id, amountCents: amount, currency: booking.currency, reason: reason, idempotencyKey: key)
        let now = clock.now
        return try await orCurrent(
            store.transition(
                bookingID: booking.id, from: [booking.state], to: booking.state, paymentStatus: .paid,
                event: BookingEvent(
                    bookingID: booking.id, at: now, type: "refunded", actor: "system",
                    detail: "\(why); refunded \(Money.formatCHF(amount))"),
                notification: notify ? cancellationNotice(for: booking) : nil,
                refund: refundRecord(booking, providerRefundID: refundID, amountCents: amount, reason: reason, now: now)
            ), booking)
    }

    /// The ledger's record of a refund the provider just made (nil for a booking from before
    /// the ledger that has no payment record).
    private func refundRecord(_ booking: Booking, providerRefundID: String, amountCents: Int, reason: String, now: Date)
        -> RefundRecord?
    {
        booking.paymentRecordID.map {
            RefundRecord(
                id: random.identifier(prefix: "ref"), paymentID: $0, providerRefundID: providerRefundID,
                amountCents: amountCents, currency: booking.currency, reason: reason, createdAt: now)
        }
    }

    /// The transition's result, or the booking as it is now when someone else moved it first.
    private func orCurrent(_ moved: Booking?, _ booking: Booking) async throws -> Booking? {
        if let moved { return moved }
        return try await store.booking(reference: booking.reference)
    }

    /// Whether the booking could be made now: the pickup is still far enough ahead.
    func rulesStillHold(_ booking: Booking, _ now: Date) -> Bool {
        (try? rules.checkPickupTime(booking.pickupAt, now: now)) != nil
    }

    // MARK: Expiry

    /// Expires every unpaid booking whose quote lapsed, and cancels its payment. Run by the
    /// background service and at start, so a server that was down catches up.
    /// A booking that fails (its provider refuses, or is down) is skipped with a growing pause
    /// and the others go on (security review finding 5: one poison booking stopped them all).
    @discardableResult
    public func expireLapsedBookings(limit: Int = 100) async throws -> Int {
        var count = 0
        let now = clock.now
        let pausing = await expiryBackoff.pausedCount(now: now)
        for booking in try await store.lapsedUnpaidBookings(now: now, limit: limit + pausing) {
            guard await expiryBackoff.isDue(booking.id, now: now) else { continue }
            do {
                if try await expire(booking) != nil { count += 1 }
                await expiryBackoff.succeeded(booking.id)
            } catch {
                await expiryBackoff.failed(booking.id, now: now)
            }
        }
        return count
    }

    func expireIfLapsed(_ booking: Booking) async throws -> Booking {
        guard booking.state == .awaitingPayment, clock.now >= booking.quoteExpiresAt else { return booking }
        return try await orCurrent(expire(booking), booking) ?? booking
    }

    private func expire(_ booking: Booking) async throws -> Booking? {
        // Ask the provider first: a payment whose word never reached us (a lost webhook, a crash
        // between the checkout and its transition) must not lapse into an expired booking that
        // kept the money. It takes the late-payment path instead: confirmed, or refunded.
        if let paymentID = booking.paymentID, let snapshot = try? await payments.fetchPayment(id: paymentID),
            snapshot.status == .paid
        {
            return try await applyPayment(snapshot)
        }
        let expired = try await store.transition(
            bookingID: booking.id, from: [.awaitingPayment], to: .expired, paymentStatus: nil,
            event: BookingEvent(
                bookingID: booking.id, at: clock.now, type: "expired", actor: "system",
                detail: "unpaid when the quote expired"),
            notification: nil, refund: nil)
        if expired != nil, let paymentID = booking.paymentID {
            // Best effort: if the provider is down the payment page stays open, and a payment that
            // still arrives takes the late-payment path.
            try? await payments.cancelPayment(id: paymentID)
        }
        return expired
    }

    // MARK: Refunds owed

    /// Refunds every cancelled booking whose payment is not refunded yet; run by the worker. A
    /// refund that fails pauses that booking (like expiry) and the others go on.
    @discardableResult
    public func settleOwedRefunds(limit: Int = 100) async throws -> Int {
        let now = clock.now
        var count = 0
        for booking in try await store.cancelledBookingsOwingRefunds(limit: limit) {
            guard await refundBackoff.isDue(booking.id, now: now) else { continue }
            do {
                if try await refundOwed(booking) { count += 1 }
                await refundBackoff.succeeded(booking.id)
            } catch {
                await refundBackoff.failed(booking.id, now: now)
            }
        }
        return count
    }

    /// Refunds what is still unrefunded of a cancelled booking's payment, under a key that stays
    /// the same on every attempt, and records it in the ledger once. False when nothing is owed.
    @discardableResult
    func refundOwed(_ booking: Booking) async throws -> Bool {
        guard let paymentID = booking.paymentID else { return false }
        let snapshot = try await payments.fetchPayment(id: paymentID)
        guard snapshot.status == .paid else { return false }
        let owed = min(booking.priceCents, snapshot.amountCents)
        let remaining = owed - snapshot.refundedCents
        let reason = "Concierge ride \(booking.reference) cancelled by the customer"
        let key = "cancel-\(booking.id)"
        // Refunded at the provider but not in our ledger (a crash between the two): recorded
        // under the refund's key, so the ledger agrees and the worker stops asking.
        let refundID =
            remaining > 0
            ? try await payments.refundPayment(
                id: paymentID, amountCents: remaining, currency: booking.currency, reason: reason,
                idempotencyKey: key) : key
        if let refund = refundRecord(
            booking, providerRefundID: refundID, amountCents: remaining > 0 ? remaining : owed, reason: reason,
            now: clock.now)
        {
            try await store.recordRefund(refund)
        }
        return true
    }

    // MARK: Cancelling

    /// The customer cancels: free until `freeCancellationHours` before pickup, refunded through
    /// the provider; later → 409 with the policy.
    public func cancel(reference: String, customer: Customer) async throws -> Booking {
        let booking = try await booking(reference: reference, customerID: customer.id)
        let now = clock.now
        let actor = "customer:\(customer.id)"
        switch booking.state {
        case .awaitingPayment:
            guard
                let cancelled = try await store.transition(
                    bookingID: booking.id, from: [.awaitingPayment], to: .cancelled, paymentStatus: nil,
                    event: BookingEvent(
                        bookingID: booking.id, at: now, type: "cancelled", actor: actor, detail: "before payment"),
                    notification: nil, refund: nil)
            else { return try await self.booking(reference: reference, customerID: customer.id) }
            if let paymentID = booking.paymentID { try? await payments.cancelPayment(id: paymentID) }
            return cancelled
        case .confirmed:
            let deadline = booking.pickupAt.addingTimeInterval(-Double(rules.freeCancellationHours) * 3600)
            guard now <= deadline else {
                throw ConciergeError(
                    .conflict, code: "cancellation_window_closed",
                    message:
                        "Rides can be cancelled free of charge until \(rules.freeCancellationHours) hours before pickup (\(ZurichTime.describe(deadline))). Please contact us to change this ride."
                )
            }
            // The booking moves first, conditionally: if dispatch moved the ride meanwhile, nothing
            // is refunded (security review finding 12: refunding first gave a free ride). The
            // refund follows, and a refund that fails now is retried by the worker under the same
            // idempotency key (`settleOwedRefunds`): the money is owed from this commit on.
            guard
                let cancelled = try await store.transition(
                    bookingID: booking.id, from: [.confirmed], to: .cancelled, paymentStatus: nil,
                    event: BookingEvent(
                        bookingID: booking.id, at: now, type: "cancelled", actor: actor,
                        detail: "refund of \(Money.formatCHF(booking.priceCents)) owed"),
                    notification: cancellationNotice(for: booking), refund: nil)
            else { return try await self.booking(reference: reference, customerID: customer.id) }
            _ = try? await refundOwed(cancelled)
            return cancelled
        case .cancelled:
            return booking
        default:
            throw ConciergeError(
                .conflict, code: "not_cancellable",
                message:
                    "This booking is \(booking.state.rawValue.replacingOccurrences(of: "_", with: " ")) and can no longer be cancelled."
            )
        }
    }
}
