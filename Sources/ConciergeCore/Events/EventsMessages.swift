/// The texts of the events emails, sent through the outbox in the transaction of the change.
enum EventsMessages {
    static func confirmation(_ view: EventsService.BookingView, qrCode: String) -> OutboxMessage {
        let booking = view.booking
        let seats = booking.tickets.map { ticket -> String in
            let seat = view.venue.seats.first { $0.id == ticket.seatID }
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

                Show this code at the door (the app shows it as a QR code):
                \(qrCode)

                Free cancellation until the time stated in your booking.
                """)
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

    static func cancellation(_ view: EventsService.BookingView) -> OutboxMessage {
        .email(
            dedupeKey: "events:cancelled:\(view.booking.orderID)", to: view.booking.contactEmail,
            subject: "Cancelled: \(view.show.title) (\(view.booking.reference.code))",
            text: """
                Your tickets for \(view.show.title) on \(whenText(view)) are cancelled, and \
                \(EventsMoney.format(view.booking.amountCents, view.booking.currency)) is refunded to your payment method.
                """)
    }

    private static func whenText(_ view: EventsService.BookingView) -> String {
        let zone = view.venue.timeZone
        return
            "\(LocalShowTime.date(view.show.startsAt, zone: zone)) \(LocalShowTime.time(view.show.startsAt, zone: zone).prefix(5)) (\(zone))"
    }
}
