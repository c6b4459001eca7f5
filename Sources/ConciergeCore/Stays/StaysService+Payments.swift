import Foundation

extension StaysService {
    // MARK: Prepaying

    /// Holds one room of the type on every night and opens a payment for the whole stay: the
    /// hold, the order, its payment and the reservation are one transaction. A full night throws
    /// `sold_out` (nothing held) and the payment opened for it is cancelled.
    func reservePrepaid(
        guest: StaysGuest, type: HotelSettings.RoomType, range: StayRange, people: Int, purpose: String,
        quote: StayQuote, idempotencyKey: String?, requestHash: String?, hotel: HotelSettings
    ) async throws -> StaysReserveOutcome {
        // A repeat gets its first answer without opening a second payment at the provider.
        if let key = idempotencyKey,
            let earlier = try await store.reservation(
                accountID: guest.accountID, idempotencyKey: key, requestHash: requestHash)
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
            state: StaysReservationRecord.Status.pendingPayment.rawValue, lines: lines, createdAt: now,
            holdID: hold.id, expiresAt: expiresAt)
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
                payment: payment, hold: hold), requestHash: requestHash)
        do {
            let outcome = try await store.reserve(
                reservation, cap: limits.openCap(accountID: guest.accountID, scope: limitScope(hotel))
            ) { _ in nil }
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
    /// is charged (kept from a prepayment, owed at the hotel otherwise). A prepaid reservation is
    /// the platform lifecycle's to cancel: its nights go back through its hold and what is owed
    /// back is refunded after the move. One paid at the hotel has no money to move: its nights
    /// go back through the platform's inventory in the same transaction as its new state.
    public func cancel(id: Int, guest: StaysGuest) async throws -> StaysReservationRecord {
        let record = try await reservation(id: id, guest: guest)
        switch record.status {
        case .cancelled: throw ConciergeError.staysAlreadyCancelled
        case .expired, .refunded:
            throw ConciergeError(
                .conflict, code: "not_cancellable",
                message:
                    "This reservation is \(record.status.rawValue.replacingOccurrences(of: "_", with: " ")) already.")
        case .pendingPayment, .confirmed: break
        }
        let hotel = try await self.hotel()
        if let prepayment = record.prepayment {
            let terms = try cancellationTerms(record, hotel: hotel)
            _ = try await lifecycle.cancel(
                orderID: prepayment.orderID, actor: "account:\(guest.accountID)", terms: { _ in terms },
                vertical: self)
            guard let cancelled = try await store.reservation(id: id), cancelled.status == .cancelled else {
                throw ConciergeError.staysAlreadyCancelled
            }
            return cancelled
        }
        let charged = try cancellationTerms(record, hotel: hotel).kept(of: record.firstNightCents, at: clock.now)
        let messages = self.messages
        guard
            let cancelled = try await store.apply(
                StaysTransition(
                    reservationID: id, from: [.confirmed], to: .cancelled, at: clock.now, refundedCents: 0,
                    chargedCents: charged, returnSoldNights: true,
                    email: { try messages.cancellation($0, guest: guest, hotel: hotel) }))
        else { throw ConciergeError.staysAlreadyCancelled }
        return cancelled
    }

    /// The hotel gives part of a prepaid stay back (the reservation stands).
    public func refundInPart(orderID: String, cents: Int, reason: String, actor: String) async throws -> Int {
        guard try await store.reservation(orderID: orderID) != nil else {
            throw ConciergeError.staysReservationNotFound
        }
        _ = try await lifecycle.refundPart(orderID: orderID, cents: cents, actor: actor, reason: reason, vertical: self)
        return cents
    }

    /// Stays' policy, as the platform evaluates it: free until the hotel's deadline before
    /// check-in, the first night kept after it.
    func cancellationTerms(_ record: StaysReservationRecord, hotel: HotelSettings) throws -> CancellationTerms {
        try cancellation.terms(
            checkInAt: record.checkIn.date(hour: hotel.checkInHour, in: hotel.calendar),
            firstNightCents: record.firstNightCents, now: clock.now)
    }

    // MARK: Expiry

    /// Expires prepaid reservations whose hold lapsed unpaid (the lifecycle's expiry, one order
    /// at a time).
    @discardableResult
    public func expireLapsedReservations(limit: Int = 100) async throws -> Int {
        try await lifecycle.expireLapsedOrders(of: self, limit: limit)
    }
}

extension StaysService: PaymentOwner {
    public var vertical: String { Self.vertical }

    /// The dispatcher's entry, behind webhooks, the return page and the sandbox checkout.
    public func applyPayment(_ snapshot: PaymentSnapshot, record: PaymentRecord) async throws {
        try await lifecycle.paymentReported(snapshot, orderID: record.orderID, vertical: self)
    }

    /// The return page's look at the provider before the webhook arrives.
    func apply(_ snapshot: PaymentSnapshot, to reservation: StaysReservationRecord) async throws {
        guard let prepayment = reservation.prepayment else { return }
        try await lifecycle.paymentReported(snapshot, orderID: prepayment.orderID, vertical: self)
    }
}

extension StaysService: OrderVertical {
    public func message(_ notice: OrderNotice, for order: LifecycleOrder) async throws -> OutboxMessage? {
        guard let record = try await store.reservation(orderID: order.id),
            let guest = try await store.guest(guestID: record.guestID)
        else { return nil }
        let hotel = try await self.hotel()
        switch notice {
        case .confirmed:
            return try messages.confirmation(record.moved(to: .confirmed), guest: guest, hotel: hotel)
        case .cancelled(let refunded, let kept):
            return try messages.cancellation(
                record.moved(to: .cancelled, refundedCents: refunded, chargedCents: kept), guest: guest, hotel: hotel)
        case .refundedLate, .refundedAfterCancel, .refundedMismatch:
            return try messages.lateRefund(
                record.moved(to: .refunded, refundedCents: record.totalCents), guest: guest, hotel: hotel)
        case .withdrawn(let refunded):
            return try messages.cancellation(
                record.moved(to: .cancelled, refundedCents: refunded, chargedCents: 0), guest: guest, hotel: hotel)
        case .refundedInPart(let cents, let reason):
            guard !guest.email.isEmpty else { return nil }
            return .email(
                dedupeKey: "stays_res_\(record.id):partial-refund:\(order.id):\(cents)", to: guest.email,
                subject: "\(hotel.name): a refund for your stay \(record.confirmationCode)",
                text: """
                    Dear \(guest.firstName), we have refunded \(hotel.formatted(cents, currency: record.currency)) of \
                    your stay from \(record.checkIn) to \(record.checkOut) to your payment method: \(reason).
                    """)
        }
    }

    public func label(_ order: LifecycleOrder) -> String { "Stay \(order.reference)" }
}

extension StaysReservationRecord {
    /// The record as a transition will leave it, for the message written in its commit.
    func moved(to status: Status, refundedCents: Int? = nil, chargedCents: Int? = nil) -> StaysReservationRecord {
        StaysReservationRecord(
            id: id, guestID: guestID, accountID: accountID, roomTypeID: roomTypeID, checkIn: checkIn,
            checkOut: checkOut, people: people, purpose: purpose, accommodationCents: accommodationCents,
            cityTaxCents: cityTaxCents, vatIncludedCents: vatIncludedCents, firstNightCents: firstNightCents,
            currency: currency, status: status, confirmationCode: confirmationCode, createdAt: createdAt,
            cancelledAt: cancelledAt, refundedCents: refundedCents ?? self.refundedCents,
            chargedCents: chargedCents ?? self.chargedCents, paymentPolicy: paymentPolicy, prepayment: prepayment,
            paidAt: paidAt)
    }
}
