import Foundation

extension EventsService {
    /// Holds the selected seats and opens a payment for them, all or nothing: the hold, the
    /// order, its payment and the booking are one transaction. Named seats that are gone throw
    /// `SeatsUnavailableError` (nothing held); best available retries when a racer took its pick.
    /// `clientIP` counts the request against the per-network limit on order-creating routes.
    public func checkout(_ selection: SeatSelection, accountID: String, email: String, clientIP: String) async throws
        -> OpenedCheckout
    {
        try await limits.admit(clientIP: clientIP)
        // The seat states serve the show's status and best available's first pick. They are this
        // instance's view (`SeatStateCache`): the hold below is what the database decides on.
        guard let current = try await store.show(id: selection.showID) else {
            throw ConciergeError.showNotFound(selection.showID)
        }
        var taken = try await takenSeats(showID: current.id).taken
        let summary = try await summary(of: current, takenCount: taken.count)
        switch summary.status {
        case .cancelled: throw ConciergeError.showNotOnSale("it was cancelled")
        case .past: throw ConciergeError.showNotOnSale("it has started already")
        case .notYetOnSale:
            throw ConciergeError.showNotOnSale("sales open \(summary.localTime(of: summary.show.onSaleFrom))")
        case .salesEnded:
            throw ConciergeError.showNotOnSale("sales closed \(summary.localTime(of: summary.show.onSaleUntil))")
        case .onSale, .soldOut: break
        }
        switch selection.kind {
        case .seats(let ids):
            let seats = try validated(ids, in: summary.venue.seatsByID)
            try await checkLimits(accountID: accountID, summary: summary, adding: seats.count)
            return try await open(seats, summary: summary, accountID: accountID, email: email)
        case .best(let quantity, let section):
            try checkQuantity(quantity)
            try await checkLimits(accountID: accountID, summary: summary, adding: quantity)
            var sections = summary.venue.sections
            if let section {
                sections = sections.filter { $0.id == section }
                guard !sections.isEmpty else {
                    throw ConciergeError.invalidSeatSelection(
                        "This venue has no section '\(section.prefix(40))'; use one of "
                            + summary.venue.sections.map(\.id).joined(separator: ", ") + ".")
                }
            }
            // A racer can take the pick between reading and holding: read again and retry. With
            // 64 buyers racing for the best seats three tries often all lost, and the buyer heard
            // "not enough adjacent seats" with most of the hall free (the seats benchmark). A lost
            // race wrote the racer's seats into the kept states; from the fifth try on, the whole
            // show is read from the database.
            for attempt in 0..<8 {
                if attempt > 0 { taken = try await takenSeats(showID: summary.show.id, fresh: attempt >= 4).taken }
                let seen = taken
                guard
                    let seats = BestAvailable.pick(
                        quantity: quantity, sections: sections, isFree: { seen[$0] == nil })
                else {
                    throw SeatsUnavailableError(seatIDs: [])
                }
                do {
                    return try await open(seats, summary: summary, accountID: accountID, email: email)
                } catch is SeatsUnavailableError {
                    continue
                }
            }
            throw SeatsUnavailableError(seatIDs: [])
        }
    }

    private func checkQuantity(_ count: Int) throws {
        guard (1...policy.maximumSeatsPerOrder).contains(count) else {
            throw ConciergeError.invalidSeatSelection(
                "An order has 1 to \(policy.maximumSeatsPerOrder) seats; \(count) were asked for.")
        }
    }

    private func validated(_ ids: [String], in seats: [String: EventSeat]) throws -> [EventSeat] {
        try checkQuantity(ids.count)
        guard Set(ids).count == ids.count else {
            throw ConciergeError.invalidSeatSelection("Each seat can be named once; a seat id was repeated.")
        }
        let unknown = ids.filter { seats[$0] == nil }
        guard unknown.isEmpty else {
            throw ConciergeError.invalidSeatSelection(
                "These are not seats of this show: \(unknown.map { String($0.prefix(40)) }.joined(separator: ", ")).")
        }
        return ids.compactMap { seats[$0] }
    }

    private func open(_ seats: [EventSeat], summary: ShowSummary, accountID: String, email: String) async throws
        -> OpenedCheckout
    {
        let show = summary.show
        let priced = try seats.map { seat -> (EventSeat, Int) in
            guard let price = show.price(section: seat.sectionID) else {
                throw ConciergeError.invalidSeatSelection("Seat \(seat.id) is not on sale for this show.")
            }
            return (seat, price.priceCents)
        }
        let seatIDs = seats.map(\.id)
        // Marked before the hold commits, so that this instance's other buyers pick other seats
        // instead of racing for the same best ones; a checkout that fails gives them back.
        seatStates.mark(showID: show.id, seatIDs: seatIDs, as: .reserved)
        do {
            let opened = try await place(
                priced, show: show, accountID: accountID, email: email,
                caps: (
                    limits.openCap(
                        accountID: accountID,
                        scope: limitScope(timeZone: TimeZone(identifier: summary.venue.timeZone) ?? .gmt)),
                    policy.maximumSeatsPerShow > 0
                        ? SeatsPerShowCap(
                            accountID: accountID, showID: show.id, max: policy.maximumSeatsPerShow,
                            retryAfterSeconds: policy.holdMinutes * 60) : nil
                ))
            seatStates.mark(showID: show.id, seatIDs: seatIDs, as: .reserved)
            announceSeatChange(showID: show.id)
            return opened
        } catch let error as ConciergeError where error.code == "hold_unavailable" {
            // A racer (another instance, or a hold this one did not know of) has some of them.
            let gone = try await store.takenSeats(showID: show.id, among: seatIDs)
            seatStates.mark(showID: show.id, seatIDs: seatIDs.filter { gone[$0] == nil }, as: .available)
            for state in Set(gone.values) {
                seatStates.mark(showID: show.id, seatIDs: seatIDs.filter { gone[$0] == state }, as: state)
            }
            let unavailable = seatIDs.filter { gone[$0] != nil }
            throw SeatsUnavailableError(seatIDs: unavailable.isEmpty ? seatIDs : unavailable)
        } catch {
            seatStates.mark(showID: show.id, seatIDs: seatIDs, as: .available)
            throw error
        }
    }

    /// Opens the payment and writes the hold, order, payment and booking in one transaction.
    private func place(
        _ priced: [(EventSeat, Int)], show: EventShow, accountID: String, email: String,
        caps: (open: OpenOrderCap?, seats: SeatsPerShowCap?)
    ) async throws -> OpenedCheckout {
        let seats = priced.map(\.0)
        let now = clock.now
        let amount = priced.reduce(0) { $0 + $1.1 }
        let orderID = random.identifier(prefix: "ord")
        let sessionID = random.identifier(prefix: "evs")
        let expiresAt = now.addingTimeInterval(Double(policy.holdMinutes * 60))
        let reference = try await freshReference()
        let request = PaymentRequest(
            amountCents: amount, currency: show.currency,
            description: "Tickets \(reference.code): \(show.title) (\(seats.count) seats)",
            redirectURL: "\(policy.publicURL)/events/api/checkout/success?session_id=\(sessionID)",
            webhookURL: "\(policy.publicURL)/payments/\(payments.name)/webhook", expiresAt: expiresAt,
            metadata: ["orderId": orderID, "reference": reference.code, "vertical": Self.vertical])
        let created = try await payments.createPayment(request)
        let payment = PaymentRecord(
            id: random.identifier(prefix: "pay"), provider: payments.name, created: created, request: request,
            ownerVertical: Self.vertical, orderID: orderID, createdAt: now)
        let hold = NewHold(
            id: random.identifier(prefix: "hld"), ownerID: accountID,
            items: priced.map { HoldItem(unitKey: EventUnits.key(show: show.id, seat: $0.0.id)) }
                .sorted { $0.unitKey < $1.unitKey }, createdAt: now, expiresAt: expiresAt)
        let booking = EventBooking(
            orderID: orderID, reference: reference, sessionID: sessionID, showID: show.id, accountID: accountID,
            contactEmail: email, holdID: hold.id, state: .pending, paymentProvider: payments.name,
            paymentID: created.id, paymentRecordID: payment.id, amountCents: amount, currency: show.currency,
            expiresAt: expiresAt, createdAt: now,
            tickets: priced.map { .init(seatID: $0.0.id, priceCents: $0.1, secret: random.token(byteCount: 16)) })
        let order = Order(
            id: orderID, vertical: Self.vertical, accountID: accountID, reference: reference, amountCents: amount,
            currency: show.currency, state: EventBooking.State.pending.rawValue,
            lines: priced.map {
                OrderLine(
                    kind: "seat", description: "\(show.title): \($0.0.sectionID) row \($0.0.row) seat \($0.0.number)",
                    quantity: 1, unitAmountCents: $0.1)
            }, createdAt: now, holdID: hold.id, expiresAt: expiresAt)
        let event = OrderEvent(
            orderID: orderID, at: now, type: "held", actor: "account:\(accountID)",
            detail: "\(seats.count) seats held until the payment")
        do {
            guard
                try await store.insertCheckout(
                    booking, hold: hold, order: order, event: event, payment: payment, cap: caps.open,
                    seatCap: caps.seats)
            else {
                throw ConciergeError(
                    .unavailable(retryAfterSeconds: 1), code: "reference_collision",
                    message: "Two orders drew the same reference at once. Please try again.")
            }
        } catch {
            await abandon(created)
            throw error
        }
        return OpenedCheckout(booking: booking, checkoutURL: created.checkoutURL)
    }

    /// A payment opened at an outside provider for a checkout that did not commit.
    private func abandon(_ payment: CreatedPayment) async {
        guard !payments.opensPaymentsLocally else { return }
        try? await payments.cancelPayment(id: payment.id)
    }

    private func freshReference() async throws -> OrderReference {
        for attempt in 0..<references.attempts {
            let candidate = references.candidate(attempt: attempt, random: random)
            if try await !orders.isReferenceTaken(candidate.code) { return candidate }
        }
        throw ConciergeError(
            .unavailable(retryAfterSeconds: 1), code: "reference_space_exhausted",
            message: "No free order reference was found. Please try again.")
    }
}
