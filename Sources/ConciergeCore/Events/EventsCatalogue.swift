public import Foundation

/// A hall with its seats, as the seat map draws it.
public struct EventVenue: Sendable, Equatable {
    public let id: String
    public let name: String
    public let location: String
    /// IANA name, e.g. `Europe/Zurich`: show dates and times are local to it.
    public let timeZone: String
    public let width: Int
    public let height: Int
    public let sections: [EventSection]

    public init(
        id: String, name: String, location: String, timeZone: String, width: Int, height: Int,
        sections: [EventSection]
    ) {
        self.id = id
        self.name = name
        self.location = location
        self.timeZone = timeZone
        self.width = width
        self.height = height
        self.sections = sections
        self.seats = sections.flatMap(\.seats)
        self.seatsByID = Dictionary(seats.map { ($0.id, $0) }) { first, _ in first }
    }

    /// Every seat, section by section. Kept, with the index by id, because a checkout and a seat
    /// map of a 2,000-seat hall otherwise built both for each request.
    public let seats: [EventSeat]
    public let seatsByID: [String: EventSeat]
}

/// A block of seats sold at one price category per show.
public struct EventSection: Sendable, Equatable {
    public let id: String
    public let name: String
    public let color: String
    /// Lower is better: best available fills rank 1 first.
    public let rank: Int
    public let seats: [EventSeat]

    public init(id: String, name: String, color: String, rank: Int, seats: [EventSeat]) {
        self.id = id
        self.name = name
        self.color = color
        self.rank = rank
        self.seats = seats
        self.rows = Dictionary(grouping: seats, by: \.rowIndex).sorted { $0.key < $1.key }
            .map { $0.value.sorted { $0.number < $1.number } }
    }

    /// The seats row by row, front row first, each by number: what best available walks.
    public let rows: [[EventSeat]]
}

/// One seat. Seats of one row with consecutive numbers are adjacent; a row's ends are aisles.
public struct EventSeat: Sendable, Equatable, Hashable {
    public let id: String
    public let sectionID: String
    public let row: String
    /// Front row first.
    public let rowIndex: Int
    public let number: Int
    public let x: Int
    public let y: Int
    public let accessible: Bool

    public init(
        id: String, sectionID: String, row: String, rowIndex: Int, number: Int, x: Int, y: Int, accessible: Bool
    ) {
        self.id = id
        self.sectionID = sectionID
        self.row = row
        self.rowIndex = rowIndex
        self.number = number
        self.x = x
        self.y = y
        self.accessible = accessible
    }
}

/// A performance at a venue, with a price per section.
public struct EventShow: Sendable, Equatable {
    public let id: String
    public let venueID: String
    public let title: String
    public let description: String
    public let imageURL: String
    public let startsAt: Date
    public let currency: String
    public let cancelled: Bool
    public let prices: [ShowPrice]
    /// The on-sale window (pretix's presale start and end): before `onSaleFrom` and from
    /// `onSaleUntil` on, the show is listed but its seats cannot be bought. Nil is open-ended.
    public let onSaleFrom: Date?
    public let onSaleUntil: Date?

    public init(
        id: String, venueID: String, title: String, description: String, imageURL: String, startsAt: Date,
        currency: String, cancelled: Bool, prices: [ShowPrice], onSaleFrom: Date? = nil, onSaleUntil: Date? = nil
    ) {
        self.id = id
        self.venueID = venueID
        self.title = title
        self.description = description
        self.imageURL = imageURL
        self.startsAt = startsAt
        self.currency = currency
        self.cancelled = cancelled
        self.prices = prices
        self.onSaleFrom = onSaleFrom
        self.onSaleUntil = onSaleUntil
    }

    public func price(section: String) -> ShowPrice? { prices.first { $0.sectionID == section } }
}

/// The price category of one section for one show, in cents (whole units: the seed shows `Int`).
public struct ShowPrice: Sendable, Equatable {
    public let sectionID: String
    public let category: String
    public let priceCents: Int
    public let color: String

    public init(sectionID: String, category: String, priceCents: Int, color: String) {
        self.sectionID = sectionID
        self.category = category
        self.priceCents = priceCents
        self.color = color
    }
}

/// Where a seat of a show stands.
public enum SeatState: String, Sendable, Equatable {
    case available
    case reserved
    case sold
    /// Blocked for house use by the box office: not for sale, shown to buyers as sold.
    case house
}

/// The inventory key of a seat of a show: one unit of capacity 1 in the platform holds.
public enum EventUnits {
    public static func key(show: String, seat: String) -> String { "events:\(show):\(seat)" }

    /// The seat id of a unit key of `show`, or nil for another show's.
    public static func seat(in key: String, show: String) -> String? {
        let prefix = "events:\(show):"
        return key.hasPrefix(prefix) ? String(key.dropFirst(prefix.count)) : nil
    }
}
