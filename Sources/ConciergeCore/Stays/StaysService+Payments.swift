import Foundation

extension StaysService {
    // MARK: Prepaying

    /// Holds one room of the type on every night and opens a payment for the whole stay: the
    /// hold, the order, its payment and the reservation are one transaction. A full night throws
    /// `sold_out` (nothing held) and the payment opened for it is cancelled.
    func reservePrepaid(
        guest: StaysGuest, type: HotelSettings.RoomType, range: StayRange, people: Int, purpose: String,
        quote: StayQuote, idempotencyKey: String?, hotel: HotelSettings
    ) async throws -> StaysReserveOutcome {
        // A repeat gets its first answer without opening a second payment at the provider.
        if let key = idempotencyKey,
            let earlier = try await store.reservation(accountID: guest.accountID, idempotencyKey: key)
        {
            return .replayed(earlier)
        }
        let now = clock.now
        let orderID = random.identifier(prefix: "ord")
        let reference = try await freshReference()
        let expiresAt = now.addingTimeInterval(Double(prepay.holdMinutes) * 60)
        let description =
            "Stay \(reference.code): \(type.type), \(range.checkIn) to \(range.checkOut), \(hotel.name)"
        let request = PaymentRequest(
            amountCents: quote.totalCents, currency: hotel.currency, description: String(description.prefix(250)),
            redirectURL: "\(prepay.publicURL)/stays/payment/return?session=\(reference.secret)",
            webhookURL: "\(prepay.publicURL)/payments/\(payments.name)/webhook", expiresAt: expiresAt,
            metadata: [
                "orderId": orderID, "reference": reference.code, "bookingReference": reference.code,
                "vertical": Self.vertical,
            ])
        let created = try await payments.createPayment(request)
        let payment = PaymentRecord(
            id: random.identifier(prefix: "pay"), provider: payments.name, created: created, request: request,
            ownerVertical: Self.vertical, orderID: orderID, createdAt: now)
        let hold = NewHold(
            id: random.identifier(prefix: "hld"), ownerID: guest.accountID,
            items: range.nights.map { HoldItem(unitKey: StaysUnits.key(roomType: type.id, night: $0)) }
                .sorted { $0.unitKey < $1.unitKey }, createdAt: now, expiresAt: expiresAt)
        var lines = zip(range.nights, quote.nightlyCents).map { night, cents in
            OrderLine(
                kind: "room-night", description: "\(type.type), night of \(night)", quantity: 1, unitAmountCents: cents)
        }
        if quote.cityTaxCents > 0 {
            lines.append(
                OrderLine(
                    kind: "city-tax", description: "City tax, \(people) × \(range.nights.count) person-nights",
                    quantity: people * range.nights.count, unitAmountCents: hotel.cityTaxCentsPerPersonNight))
        }
        let order = Order(
            id: orderID, vertical: Self.vertical, accountID: guest.accountID, reference: reference,
            amountCents: quote.totalCents, currency: hotel.currency,
            state: StaysReservationRecord.Status.pendingPayment.rawValue, lines: lines, createdAt: now)
        let summary = StaysPrepayment(
            orderID: orderID, reference: reference.code, returnSecret: reference.secret, holdID: hold.id,
            provider: payments.name, providerPaymentID: created.id, paymentRecordID: payment.id,
            checkoutURL: created.checkoutURL, expiresAt: expiresAt)
        let reservation = NewStaysReservation(
            guest: guest, roomTypeID: type.id, rooms: type.rooms, range: range, people: people, purpose: purpose,
            quote: quote, currency: hotel.currency, confirmationCode: confirmationCode(),
            idempotencyKey: idempotencyKey, createdAt: now,
            prepayment: NewStaysPrepayment(
                summary: summary, order: order,
                event: OrderEvent(
                    orderID: orderID, at: now, type: "held", actor: "account:\(guest.accountID)",
                    detail: "\(range.nights.count) room-nights held until the payment"),
                payment: payment, hold: hold))
        do {
            let outcome = try await store.reserve(reservation) { _ in nil }
            if case .replayed = outcome { await abandon(created) }
            return outcome
        } catch {
            await abandon(created)
            throw error
        }
    }

    /// A payment opened at an outside provider for a reservation that did not commit.
    private func abandon(_ payment: CreatedPayment) async {
        guard !payments.opensPaymentsLocally else { return }
        try? await payments.cancelPayment(id: payment.id)
    }

    private func freshReference() async throws -> OrderReference {
        for attempt in 0..<Self.references.attempts {
            let candidate = Self.references.candidate(attempt: attempt, random: random)
            if try await !orders.isReferenceTaken(candidate.code) { return candidate }
        }
        throw ConciergeError(
            .unavailable(retryAfterSeconds: 1), code: "reference_space_exhausted",
            message: "No free order reference was found. Please try again.")
    }

    /// The reservation a payment's return page names (its unguessable secret).
    public func reservation(returnSecret: String) async throws -> (StaysReservationRecord, StaysGuest) {
        guard let record = try await store.reservation(returnSecret: returnSecret),
            let guest = try await store.guest(guestID: record.guestID)
        else {
            throw ConciergeError(.notFound, code: "not_found", message: "There is no such payment.")
        }
        return (record, guest)
    }

    // MARK: Cancelling

    /// Cancels under the policy: free until `freeHours` before check-in, later the first night
    /// is charged (kept from a prepayment) and the rest refunded through the provider. A
    /// reservation still waiting for its payment is cancelled free: its nights go back and its
    /// payment is cancelled.
    public func cancel(id: Int, guest: StaysGuest) async throws -> StaysReservationRecord {
        let record = try await reservation(id: id, guest: guest)
        let hotel = try await self.hotel()
        let now = clock.now
        let messages = self.messages
        let email: @Sendable (StaysReservationRecord) throws -> OutboxMessage? = {
            try messages.cancellation($0, guest: guest, hotel: hotel)
        }
        switch record.status {
        case .pendingPayment:
            guard let prepayment = record.prepayment else { throw ConciergeError.staysAlreadyCancelled }
            guard
                let cancelled = try await store.apply(
                    StaysTransition(
                        reservationID: id, from: [.pendingPayment], to: .cancelled, at: now, refundedCents: 0,
                        chargedCents: 0,
                        orderEvent: event(prepayment, now, "cancelled", "account:\(guest.accountID)", "before payment"),
                        paymentStatus: .canceled, email: email))
            else { throw ConciergeError.staysAlreadyCancelled }
            _ = try await holds.release(id: prepayment.holdID, now: now)
            try? await payments.cancelPayment(id: prepayment.providerPaymentID)
            return cancelled
        case .confirmed:
            break
        case .cancelled:
            throw ConciergeError.staysAlreadyCancelled
        case .expired, .refunded:
            throw ConciergeError(
                .conflict, code: "not_cancellable",
                message:
                    "This reservation is \(record.status.rawValue.replacingOccurrences(of: "_", with: " ")) already.")
        }
        let checkInAt = record.checkIn.date(hour: hotel.checkInHour, in: hotel.calendar)
        let charged: Int
        switch try cancellation.outcome(checkInAt: checkInAt, firstNightCents: record.firstNightCents, now: now) {
        case .free: charged = 0
        case .firstNightCharged(let cents): charged = cents
        }
        var refunded = 0
        var refund: RefundRecord?
        var orderEvent: OrderEvent?
        if let prepayment = record.prepayment, record.paidAt != nil {
            refunded = max(0, record.totalCents - charged)
            if refunded > 0 {
                let reason = "Stay \(prepayment.reference) cancelled by the guest"
                let refundID = try await payments.refundPayment(
                    id: prepayment.providerPaymentID, amountCents: refunded, currency: record.currency, reason: reason,
                    idempotencyKey: "cancel-\(prepayment.orderID)")
                refund = RefundRecord(
                    id: random.identifier(prefix: "ref"), paymentID: prepayment.paymentRecordID,
                    providerRefundID: refundID, amountCents: refunded, currency: record.currency, reason: reason,
                    createdAt: now)
            }
            orderEvent = event(
                prepayment, now, "cancelled", "account:\(guest.accountID)",
                "refunded \(hotel.formatted(refunded, currency: record.currency)), kept \(hotel.formatted(charged, currency: record.currency)); nights back on sale"
            )
        }
        guard
            let cancelled = try await store.apply(
                StaysTransition(
                    reservationID: id, from: [.confirmed], to: .cancelled, at: now, refundedCents: refunded,
                    chargedCents: charged, returnSoldNights: true, orderEvent: orderEvent, refund: refund,
                    email: email))
        else { throw ConciergeError.staysAlreadyCancelled }
        return cancelled
    }

    // MARK: Expiry

    /// Expires prepaid reservations whose hold lapsed unpaid: the nights go back on sale (the
    /// platform's hold expiry gives them back too, whichever comes first) and the payment is
    /// cancelled. A payment that did arrive (a lost webhook) takes the late-payment path.
    @discardableResult
    public func expireLapsedReservations(limit: Int = 100) async throws -> Int {
        var count = 0
        for record in try await store.lapsedPendingReservations(now: clock.now, limit: limit) {
            guard let prepayment = record.prepayment else { continue }
            if let snapshot = try? await payments.fetchPayment(id: prepayment.providerPaymentID),
                snapshot.status == .paid
            {
                try await apply(snapshot, to: record)
                continue
            }
            let now = clock.now
            guard
                try await store.apply(
                    StaysTransition(
                        reservationID: record.id, from: [.pendingPayment], to: .expired, at: now,
                        orderEvent: event(prepayment, now, "expired", "system", "unpaid when the hold lapsed")))
                    != nil
            else { continue }
            count += 1
            _ = try await holds.release(id: prepayment.holdID, now: now)
            try? await payments.cancelPayment(id: prepayment.providerPaymentID)
        }
        return count
    }

    func event(_ prepayment: StaysPrepayment, _ now: Date, _ type: String, _ actor: String, _ detail: String)
        -> OrderEvent
    {
        OrderEvent(orderID: prepayment.orderID, at: now, type: type, actor: actor, detail: detail)
    }
}

extension StaysService: PaymentOwner {
    public var vertical: String { Self.vertical }

    /// The one transition behind webhooks, the return page, the sandbox checkout and expiry.
    /// Idempotent: a replay finds the reservation moved and changes nothing.
    public func applyPayment(_ snapshot: PaymentSnapshot, record: PaymentRecord) async throws {
        guard let reservation = try await store.reservation(orderID: record.orderID) else { return }
        try await apply(snapshot, to: reservation)
    }

    func apply(_ snapshot: PaymentSnapshot, to reservation: StaysReservationRecord) async throws {
        guard let prepayment = reservation.prepayment,
            let guest = try await store.guest(guestID: reservation.guestID)
        else { return }
        let hotel = try await self.hotel()
        let now = clock.now
        let actor = "provider:\(prepayment.provider)"
        let messages = self.messages
        guard snapshot.status == .paid else {
            // Failed, cancelled or expired at the provider while held: the nights go back now.
            guard [.failed, .canceled, .expired].contains(snapshot.status), reservation.status == .pendingPayment
            else { return }
            let moved = try await store.apply(
                StaysTransition(
                    reservationID: reservation.id, from: [.pendingPayment],
                    to: snapshot.status == .expired ? .expired : .cancelled, at: now, refundedCents: 0, chargedCents: 0,
                    orderEvent: event(
                        prepayment, now, "payment_\(snapshot.status.rawValue)", actor, "the nights go back on sale"),
                    paymentStatus: snapshot.status))
            if moved != nil { _ = try await holds.release(id: prepayment.holdID, now: now) }
            return
        }
        switch reservation.status {
        case .pendingPayment, .expired:
            break
        case .cancelled where reservation.paidAt == nil:
            // Paid after the guest cancelled it: nothing was bought, so all of it goes back.
            try await refundInFull(
                reservation, prepayment, snapshot, guest: guest, hotel: hotel, from: [.cancelled],
                why: "paid after the reservation was cancelled")
            return
        case .confirmed, .cancelled, .refunded:
            return
        }
        let decision = try await LatePaymentPolicy(store: holds, clock: clock)
            .paymentArrived(holdID: prepayment.holdID, orderID: prepayment.orderID)
        switch decision {
        case .sold(_, let late):
            let confirmed = try await store.apply(
                StaysTransition(
                    reservationID: reservation.id, from: [.pendingPayment, .expired], to: .confirmed, at: now,
                    paid: true,
                    orderEvent: event(
                        prepayment, now, "confirmed", actor,
                        late ? "paid after the hold lapsed; the nights were still free" : "paid"),
                    paymentStatus: .paid,
                    email: { try messages.confirmation($0, guest: guest, hotel: hotel) }))
            if confirmed == nil, let current = try await store.reservation(id: reservation.id),
                current.status == .cancelled, current.paidAt == nil
            {
                // Cancelled while the payment was being sold: the nights it just bought go back
                // and the money with them.
                try await refundInFull(
                    current, prepayment, snapshot, guest: guest, hotel: hotel, from: [.cancelled],
                    why: "paid while the reservation was being cancelled", returnSoldNights: true)
            }
        case .refund:
            try await refundInFull(
                reservation, prepayment, snapshot, guest: guest, hotel: hotel, from: [.pendingPayment, .expired],
                why: "paid after the hold lapsed and the nights went to someone else")
        }
    }

    /// Gives the whole payment back, moves the reservation to `refunded` and tells the guest.
    private func refundInFull(
        _ reservation: StaysReservationRecord, _ prepayment: StaysPrepayment, _ snapshot: PaymentSnapshot,
        guest: StaysGuest, hotel: HotelSettings, from: [StaysReservationRecord.Status], why: String,
        returnSoldNights: Bool = false
    ) async throws {
        let now = clock.now
        let amount = snapshot.amountCents - snapshot.refundedCents
        let reason = "Stay \(prepayment.reference): \(why)"
        let refundID = try await payments.refundPayment(
            id: prepayment.providerPaymentID, amountCents: amount, currency: reservation.currency, reason: reason,
            idempotencyKey: "late-\(prepayment.orderID)")
        let messages = self.messages
        _ = try await store.apply(
            StaysTransition(
                reservationID: reservation.id, from: from, to: .refunded, at: now, refundedCents: amount,
                chargedCents: 0, paid: true, returnSoldNights: returnSoldNights,
                orderEvent: event(prepayment, now, "refunded", "system", "\(why); refunded in full"),
                refund: RefundRecord(
                    id: random.identifier(prefix: "ref"), paymentID: prepayment.paymentRecordID,
                    providerRefundID: refundID, amountCents: amount, currency: reservation.currency, reason: reason,
                    createdAt: now),
                paymentStatus: .paid,
                email: { try messages.lateRefund($0, guest: guest, hotel: hotel) }))
    }
}
