/// A venue as the admin API imports it, in the shape seat-map tools export (seats.io and
/// pretix's seating plans): sections of rows of seats, each seat with its number and where it is
/// drawn. The first section sells first (best available), the first row of a section is its front
/// row, and seats of a row with consecutive numbers sit side by side (a skipped number is an aisle).
public struct VenueLayout: Sendable, Equatable, Codable {
    public var name: String
    public var location: String
    /// IANA name, e.g. `Europe/Zurich`: show dates and times are local to it.
    public var timeZone: String
    /// The drawing's size; when left out, the seats' extent plus a margin.
    public var width: Int?
    public var height: Int?
    public var sections: [Section]

    public struct Section: Sendable, Equatable, Codable {
        /// Lower-case letters, digits and `-`; the start of its seats' ids (`stalls-A9`).
        public var id: String
        public var name: String
        /// `#rrggbb`; when left out, one of a palette by position.
        public var color: String?
        public var rows: [Row]

        public init(id: String, name: String, color: String?, rows: [Row]) {
            self.id = id
            self.name = name
            self.color = color
            self.rows = rows
        }
    }

    public struct Row: Sendable, Equatable, Codable {
        /// `A`, `12`: letters and digits.
        public var label: String
        public var seats: [Seat]

        public init(label: String, seats: [Seat]) {
            self.label = label
            self.seats = seats
        }
    }

    public struct Seat: Sendable, Equatable, Codable {
        public var number: Int
        public var x: Int
        public var y: Int
        public var accessible: Bool?

        public init(number: Int, x: Int, y: Int, accessible: Bool? = nil) {
            self.number = number
            self.x = x
            self.y = y
            self.accessible = accessible
        }
    }

    public init(
        name: String, location: String, timeZone: String, width: Int? = nil, height: Int? = nil,
        sections: [Section]
    ) {
        self.name = name
        self.location = location
        self.timeZone = timeZone
        self.width = width
        self.height = height
        self.sections = sections
    }

    /// Sections drawn without a colour of their own take these, in order.
    static let palette = ["#c0392b", "#2980b9", "#27ae60", "#8e44ad", "#d35400", "#16a085", "#7f8c8d"]
    /// Room around the seats when the layout gives no size.
    static let margin = 40

    /// The seat's id within its venue: section, row and number (`stalls-A9`).
    public static func seatID(section: String, row: String, number: Int) -> String { "\(section)-\(row)\(number)" }

    /// The venue this layout describes, under `id`. Call `validate()` first: this only builds.
    public func venue(id: String) -> EventVenue {
        let sections = sections.enumerated().map { rank, section in
            EventSection(
                id: section.id, name: section.name, color: section.color ?? Self.palette[rank % Self.palette.count],
                rank: rank + 1,
                seats: section.rows.enumerated().flatMap { rowIndex, row in
                    row.seats.map {
                        EventSeat(
                            id: Self.seatID(section: section.id, row: row.label, number: $0.number),
                            sectionID: section.id, row: row.label, rowIndex: rowIndex, number: $0.number, x: $0.x,
                            y: $0.y, accessible: $0.accessible ?? false)
                    }
                })
        }
        let seats = sections.flatMap(\.seats)
        return EventVenue(
            id: id, name: name, location: location, timeZone: timeZone,
            width: width ?? (seats.map(\.x).max() ?? 0) + Self.margin,
            height: height ?? (seats.map(\.y).max() ?? 0) + Self.margin, sections: sections)
    }

    /// A stored venue as a layout again (what `GET …/venues/{id}` answers).
    public init(_ venue: EventVenue) {
        self.init(
            name: venue.name, location: venue.location, timeZone: venue.timeZone, width: venue.width,
            height: venue.height,
            sections: venue.sections.map { section in
                let rows = Dictionary(grouping: section.seats, by: \.rowIndex)
                return Section(
                    id: section.id, name: section.name, color: section.color,
                    rows: rows.keys.sorted().map { index in
                        let seats = (rows[index] ?? []).sorted { $0.number < $1.number }
                        return Row(
                            label: seats.first?.row ?? "",
                            seats: seats.map { Seat(number: $0.number, x: $0.x, y: $0.y, accessible: $0.accessible) })
                    })
            })
    }
}
