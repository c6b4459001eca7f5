import Foundation

/// The texts of the events emails, sent through the outbox in the transaction of the change.
enum EventsMessages {
    static func confirmation(_ view: EventsService.BookingView, qrCode: String, tickets: [SeatTicket]) -> OutboxMessage
    {
        let booking = view.booking
        let seats = booking.tickets.map { ticket -> String in
            let seat = view.venue.seatsByID[ticket.seatID]
            return
                "- \(seat?.sectionID ?? "") row \(seat?.row ?? "") seat \(seat?.number ?? 0) (\(EventsMoney.format(ticket.priceCents, booking.currency)))"
        }.joined(separator: "\n")
        return .email(
            dedupeKey: "events:confirmed:\(booking.orderID)", to: booking.contactEmail,
            subject: "Your tickets \(booking.reference.code): \(view.show.title)",
            text: """
                Thank you! Your tickets for \(view.show.title) are confirmed.

                When: \(whenText(view))
                Where: \(view.venue.name), \(view.venue.location)
                Seats:
                \(seats)
                Total: \(EventsMoney.format(booking.amountCents, booking.currency))

                Show the attached tickets at the door (one QR code per seat), or this code for all seats:
                \(qrCode)

                Free cancellation until the time stated in your booking.
                The tickets and a calendar entry are attached.
                """,
            attachments: ticketImages(tickets) + [
                EmailAttachment(
                    filename: "tickets-\(booking.reference.code).txt", contentType: "text/plain; charset=utf-8",
                    content: Data(ticketsText(view, qrCode: qrCode).utf8)),
                EmailAttachment(
                    filename: "show.ics", contentType: "text/calendar; charset=utf-8",
                    content: Data(calendarEntry(view).utf8)),
            ])
    }

    /// One PNG per seat (`ticket-stalls-A9.png`), the seat's signed QR code, as a recipe: the
    /// email provider draws it at delivery, outside the payment's transaction. A seat whose code
    /// could not be drawn (it always can: the payload is short) is left to the text attachment.
    static func ticketImages(_ tickets: [SeatTicket]) -> [EmailAttachment] {
        tickets.compactMap { ticket in
            guard let recipe = ticket.pngRecipe(moduleSize: 6) else { return nil }
            return EmailAttachment(
                filename: "ticket-\(ticket.seatID).png", contentType: "image/png", source: .qrCodePNG(recipe))
        }
    }

    /// `Stalls row A seat 9`.
    static func seatLabel(_ seatID: String, _ venue: EventVenue) -> String {
        guard let seat = venue.seatsByID[seatID] else { return seatID }
        let section = venue.sections.first { $0.id == seat.sectionID }?.name ?? seat.sectionID
        return "\(section) row \(seat.row) seat \(seat.number)"
    }

    /// One line per seat, then the payload every seat of the booking is admitted with.
    static func ticketsText(_ view: EventsService.BookingView, qrCode: String) -> String {
        let seats = view.booking.tickets.map { seatLabel($0.seatID, view.venue) }
        return
            ([view.show.title, whenText(view), "\(view.venue.name), \(view.venue.location)", ""] + seats + [
                "", "Scan code (signed): \(qrCode)",
            ]).joined(separator: "\n") + "\n"
    }

    /// An iCalendar event for the show (two hours by default, as box offices assume).
    static func calendarEntry(_ view: EventsService.BookingView) -> String {
        func stamp(_ date: Date) -> String {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = .gmt
            let p = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            return String(
                format: "%04d%02d%02dT%02d%02d%02dZ", p.year ?? 0, p.month ?? 0, p.day ?? 0, p.hour ?? 0, p.minute ?? 0,
                p.second ?? 0)
        }
        return [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Concierge//Events//EN", "BEGIN:VEVENT",
            "UID:\(view.booking.orderID)@concierge", "DTSTAMP:\(stamp(view.booking.createdAt))",
            "DTSTART:\(stamp(view.show.startsAt))", "DTEND:\(stamp(view.show.startsAt.addingTimeInterval(7200)))",
            "SUMMARY:\(view.show.title)", "LOCATION:\(view.venue.name)\\, \(view.venue.location)", "END:VEVENT",
            "END:VCALENDAR",
        ].joined(separator: "\r\n") + "\r\n"
    }

    static func lateRefund(_ view: EventsService.BookingView) -> OutboxMessage {
        .email(
            dedupeKey: "events:late-refund:\(view.booking.orderID)", to: view.booking.contactEmail,
            subject: "Your payment for \(view.show.title) was refunded",
            text: """
                Your payment for order \(view.booking.reference.code) arrived after your seats' hold had lapsed, and \
                someone else has bought some of them in the meantime. We have refunded \
                \(EventsMoney.format(view.booking.amountCents, view.booking.currency)) in full; no tickets were issued.
                Please choose other seats if you still want to come.
                """)
    }

    /// A payment that bought nothing: it arrived after the order was cancelled, or for another
    /// amount than the order's.
    static func paymentReturned(_ view: EventsService.BookingView) -> OutboxMessage {
        .email(
            dedupeKey: "events:payment-returned:\(view.booking.orderID)", to: view.booking.contactEmail,
            subject: "Your payment for \(view.show.title) was refunded",
            text: """
                A payment for order \(view.booking.reference.code) reached us after the order had been cancelled, or \
                for another amount than the order's. Nothing was bought with it, so it is refunded in full to your \
                payment method; no tickets were issued. Please start a new order if you still want to come.
                """)
    }

    static func partialRefund(_ view: EventsService.BookingView, cents: Int, reason: String) -> OutboxMessage {
        .email(
            dedupeKey: "events:partial-refund:\(view.booking.orderID):\(cents):\(reason.hashValue)",
            to: view.booking.contactEmail, subject: "A refund for \(view.show.title) (\(view.booking.reference.code))",
            text: """
                We have refunded \(EventsMoney.format(cents, view.booking.currency)) of order \
                \(view.booking.reference.code) to your payment method: \(reason). Your tickets stay valid.
                """)
    }

    static func cancellation(_ view: EventsService.BookingView) -> OutboxMessage {
        .email(
            dedupeKey: "events:cancelled:\(view.booking.orderID)", to: view.booking.contactEmail,
            subject: "Cancelled: \(view.show.title) (\(view.booking.reference.code))",
            text: """
                Your tickets for \(view.show.title) on \(whenText(view)) are cancelled, and \
                \(EventsMoney.format(view.booking.amountCents, view.booking.currency)) is refunded to your payment method.
                """)
    }

    static func showCancelled(_ view: EventsService.BookingView) -> OutboxMessage {
        .email(
            dedupeKey: "events:show-cancelled:\(view.booking.orderID)", to: view.booking.contactEmail,
            subject:
                "Cancelled: \(view.show.title) on \(LocalShowTime.date(view.show.startsAt, zone: view.venue.timeZone))",
            text: """
                We are sorry: \(view.show.title) on \(whenText(view)) is cancelled. Your order \(view.booking.reference.code) \
                is refunded in full (\(EventsMoney.format(view.booking.amountCents, view.booking.currency))) to your \
                payment method; your tickets are no longer valid.
                """)
    }

    private static func whenText(_ view: EventsService.BookingView) -> String {
        let zone = view.venue.timeZone
        return
            "\(LocalShowTime.date(view.show.startsAt, zone: zone)) \(LocalShowTime.time(view.show.startsAt, zone: zone).prefix(5)) (\(zone))"
    }
}
