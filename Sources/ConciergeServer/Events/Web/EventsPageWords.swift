import ConciergeCore
import Foundation

/// The events pages' words that take values (a seat's label, a show's time, an error as a
/// sentence), in the visitor's language, from `Strings/<language>/events.json`. Placeholders are
/// `{name}`.
struct EventsPageWords {
    let web: WebFrontEnd
    let language: WebLanguage

    init(_ web: WebFrontEnd, _ visit: WebVisit) {
        self.web = web
        self.language = visit.language
    }

    /// The plain word of `key`.
    func text(_ key: String) -> String { web.strings.text("events", key, language) }

    /// The word of `key` with each `{name}` replaced.
    func text(_ key: String, _ values: [String: String]) -> String {
        web.strings.text("events", key, language, values)
    }

    func money(_ cents: Int, _ currency: String) -> String {
        WebFormat.money(cents: cents, currency: currency, language)
    }

    /// `Tue, 1 Dec 2026, 19:30` in the venue's zone.
    func showTime(_ date: Date, venue: EventVenue) -> String {
        WebFormat.dateTime(date, zone: TimeZone(identifier: venue.timeZone) ?? WebFormat.zurich, language)
    }

    /// `Row C, seat 12, Stalls, CHF 85.00`: a seat as a screen reader and the seat list say it.
    /// `price` is the section's price already formatted (once per section: a hall has thousands
    /// of seats and few prices).
    func seat(_ seat: EventSeat, section: String, price: String?) -> String {
        let base = text("seat_label", ["row": seat.row, "number": String(seat.number), "section": section])
        guard let price else { return base }
        return "\(base), \(price)"
    }

    /// `available`, `held`, `sold`: house seats are sold as far as a buyer goes.
    func state(_ state: SeatState) -> String {
        switch state {
        case .available: text("state_available")
        case .reserved: text("state_reserved")
        case .sold, .house: text("state_sold")
        }
    }

    /// A booking's state as a short word for the tickets list.
    func bookingState(_ state: EventBooking.State) -> String { text("booking_\(state.rawValue)") }

    /// An events or accounts error as the sentence the person reads next to the field. Errors
    /// with a sentence of their own here are said in the visitor's language; others keep the
    /// service's (English) message, which already says what to do.
    func error(_ error: any Error) -> String {
        guard let error = error as? ConciergeError else { return text("error_unexpected") }
        switch error.code {
        case "invalid_token": return text("error_link_used")
        case "weak_password": return language == .en ? error.message : text("error_weak_password")
        case "cancellation_window_closed": return language == .en ? error.message : text("error_cancel_window")
        case "show_not_on_sale": return language == .en ? error.message : text("error_not_on_sale")
        default: return error.message
        }
    }

    /// The names of seats someone else took: `Stalls row A seat 9, Stalls row A seat 10`.
    func seatNames(_ ids: [String], venue: EventVenue) -> String {
        let sections = Dictionary(venue.sections.map { ($0.id, $0.name) }) { first, _ in first }
        return ids.map { id in
            guard let seat = venue.seatsByID[id] else { return id }
            return text(
                "seat_short",
                ["row": seat.row, "number": String(seat.number), "section": sections[seat.sectionID] ?? seat.sectionID])
        }.joined(separator: ", ")
    }
}
