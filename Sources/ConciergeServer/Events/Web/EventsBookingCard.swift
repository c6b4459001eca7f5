import ConciergeCore
import Foundation

/// A booking as the order page and the tickets page show it: the show, the seats with their
/// prices, the total, where it stands, and once paid one ticket per seat (its QR image, served
/// from `/events/tickets/{order}/{seat}.svg` on the visitor's cookie session, and the ticket's
/// typed code for the door).
enum EventsBookingCard {
    static func data(_ view: EventsService.BookingView, words: EventsPageWords, now: Date) -> [String: Any] {
        let booking = view.booking
        let venue = view.venue
        let sections = Dictionary(venue.sections.map { ($0.id, $0.name) }) { first, _ in first }
        // In the hall's order (section, row, number), not the order the hold stored them in.
        let order = Dictionary(venue.seats.enumerated().map { ($1.id, $0) }) { first, _ in first }
        let tickets = booking.tickets.sorted { (order[$0.seatID] ?? .max) < (order[$1.seatID] ?? .max) }
        let seats = tickets.map { ticket -> [String: Any] in
            let label =
                venue.seatsByID[ticket.seatID].map {
                    words.seat($0, section: sections[$0.sectionID] ?? $0.sectionID, price: nil)
                } ?? ticket.seatID
            return [
                "id": ticket.seatID, "label": label, "price": words.money(ticket.priceCents, booking.currency),
                "qrSrc": "/events/tickets/\(booking.orderID)/\(ticket.seatID).svg",
                "qrAlt": words.text("ticket_qr_alt", ["seat": label]),
                "code": ticket.secret,
            ]
        }
        let holding = booking.state == .pending && booking.expiresAt > now
        let left = max(0, Int(booking.expiresAt.timeIntervalSince(now)))
        return [
            "orderId": booking.orderID, "reference": booking.reference.code,
            "href": "/events/orders/\(booking.orderID)",
            "showTitle": view.show.title, "showHref": "/events/shows/\(view.show.id)",
            "when": words.showTime(view.show.startsAt, venue: venue), "venue": "\(venue.name), \(venue.location)",
            "seats": seats, "seatCount": seats.count,
            "total": words.money(booking.amountCents, booking.currency),
            "state": booking.state.rawValue, "stateText": words.bookingState(booking.state),
            "holding": holding, "lapsed": booking.state == .pending && !holding,
            "confirmed": booking.state == .confirmed,
            "cancellable": booking.state == .confirmed || holding,
            "upcoming": view.show.startsAt > now,
            "expiresAtMs": Int(booking.expiresAt.timeIntervalSince1970 * 1000),
            "expiresAtText": WebFormat.time(
                booking.expiresAt, zone: TimeZone(identifier: venue.timeZone) ?? WebFormat.zurich, words.language),
            "timeLeft": String(format: "%d:%02d", left / 60, left % 60),
        ]
    }
}
