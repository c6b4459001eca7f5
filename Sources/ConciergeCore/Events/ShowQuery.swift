public import Foundation

/// The list's filters: text (title, venue, location; case and diacritics ignored), local dates,
/// venue, a price ceiling, past shows or not, and a page.
public struct ShowQuery: Sendable, Equatable {
    public var text: String?
    /// `YYYY-MM-DD`, inclusive, in the venue's zone.
    public var from: String?
    public var to: String?
    /// A venue id or (part of) its name.
    public var venue: String?
    /// Shows whose cheapest seat costs at most this many cents.
    public var maxPriceCents: Int?
    public var includePast = false
    public var limit = 50
    public var offset = 0

    public init() {}
}

/// A show as the list shows it: its venue, how many seats are free and where it stands.
public struct ShowSummary: Sendable, Equatable {
    public enum Status: String, Sendable {
        case onSale = "on_sale"
        case soldOut = "sold_out"
        case past
        case cancelled
        /// Listed, but its on-sale window has not opened yet.
        case notYetOnSale = "not_yet_on_sale"
        /// Listed until it starts, but its on-sale window has closed.
        case salesEnded = "sales_ended"
    }

    public let show: EventShow
    public let venue: EventVenue
    public let availableSeats: Int
    public let status: Status

    public init(show: EventShow, venue: EventVenue, availableSeats: Int, now: Date) {
        self.show = show
        self.venue = venue
        self.availableSeats = availableSeats
        self.status =
            if show.cancelled {
                .cancelled
            } else if show.startsAt <= now {
                .past
            } else if let from = show.onSaleFrom, now < from {
                .notYetOnSale
            } else if let until = show.onSaleUntil, until <= now {
                .salesEnded
            } else if availableSeats == 0 {
                .soldOut
            } else {
                .onSale
            }
    }

    var localDate: String { LocalShowTime.date(show.startsAt, zone: venue.timeZone) }

    /// `on 2026-12-01 at 10:00:00 (Europe/Zurich)`, as a buyer reads an on-sale time.
    func localTime(of date: Date?) -> String {
        let date = date ?? show.startsAt
        let zone = venue.timeZone
        return "on \(LocalShowTime.date(date, zone: zone)) at \(LocalShowTime.time(date, zone: zone)) (\(zone))"
    }

    func matches(_ query: ShowQuery) -> Bool {
        if !query.includePast, status == .past { return false }
        if let text = query.text.map(Self.fold), !text.isEmpty {
            let haystack = [show.title, venue.name, venue.location].map(Self.fold)
            guard haystack.contains(where: { $0.contains(text) }) else { return false }
        }
        if let from = query.from, localDate < from { return false }
        if let to = query.to, localDate > to { return false }
        if let venueQuery = query.venue.map(Self.fold), !venueQuery.isEmpty,
            venue.id != query.venue, !Self.fold(venue.name).contains(venueQuery)
        {
            return false
        }
        if let ceiling = query.maxPriceCents, (show.prices.map(\.priceCents).min() ?? 0) > ceiling { return false }
        return true
    }

    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}
