import Foundation

/// The rules an imported layout meets before anything is written. Each broken rule is a 400 that
/// names the place in the JSON (`sections[1].rows[0]`), so the person fixing the file finds it.
extension VenueLayout {
    /// A venue with more seats than this is refused: every show of it writes one inventory row per
    /// seat, and the largest halls sold seat by seat hold about that many.
    public static let maximumSeats = 20_000
    public static let maximumSections = 100
    /// Coordinates and sizes stay within this (the SVG's units).
    public static let maximumCoordinate = 100_000

    public func validate() throws {
        try Self.text(name, "name", limit: 120)
        try Self.text(location, "location", limit: 120)
        guard timeZone.count <= 64, TimeZone(identifier: timeZone) != nil else {
            throw Self.invalid("timeZone is an IANA time zone name such as Europe/Zurich.")
        }
        for (value, field) in [(width, "width"), (height, "height")] {
            if let value, !(1...Self.maximumCoordinate).contains(value) {
                throw Self.invalid("\(field) is from 1 to \(Self.maximumCoordinate).")
            }
        }
        guard !sections.isEmpty else { throw Self.invalid("A layout has at least one section.") }
        guard sections.count <= Self.maximumSections else {
            throw Self.tooLarge("A layout has at most \(Self.maximumSections) sections.")
        }
        let seatCount = sections.reduce(0) { $0 + $1.rows.reduce(0) { $0 + $1.seats.count } }
        guard seatCount <= Self.maximumSeats else {
            throw Self.tooLarge(
                "A layout has at most \(Self.maximumSeats) seats; this one has \(seatCount). Split it into venues.")
        }
        var sectionIDs: Set<String> = []
        var seatIDs: Set<String> = []
        for (index, section) in sections.enumerated() {
            let place = "sections[\(index)]"
            try Self.checkSectionID(section.id, place)
            guard sectionIDs.insert(section.id).inserted else {
                throw Self.invalid("\(place): the section id '\(section.id)' is used twice.")
            }
            try Self.text(section.name, "\(place).name", limit: 80)
            if let color = section.color, !Self.isColor(color) {
                throw Self.invalid("\(place).color is a colour #rrggbb.")
            }
            guard !section.rows.isEmpty else {
                throw Self.invalid("\(place): the section '\(section.id)' has no rows; every section has seats.")
            }
            try checkRows(of: section, place, seatIDs: &seatIDs)
        }
    }

    private func checkRows(of section: Section, _ place: String, seatIDs: inout Set<String>) throws {
        var labels: Set<String> = []
        for (rowIndex, row) in section.rows.enumerated() {
            let rowPlace = "\(place).rows[\(rowIndex)]"
            guard (1...8).contains(row.label.count),
                row.label.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
            else {
                throw Self.invalid("\(rowPlace).label is 1 to 8 letters or digits (A, 12, AA).")
            }
            guard labels.insert(row.label).inserted else {
                throw Self.invalid("\(rowPlace): row \(row.label) appears twice in the section '\(section.id)'.")
            }
            guard !row.seats.isEmpty else { throw Self.invalid("\(rowPlace): row \(row.label) has no seats.") }
            for (seatIndex, seat) in row.seats.enumerated() {
                let seatPlace = "\(rowPlace).seats[\(seatIndex)]"
                guard (1...9_999).contains(seat.number) else {
                    throw Self.invalid("\(seatPlace).number is from 1 to 9999.")
                }
                guard (0...Self.maximumCoordinate).contains(seat.x), (0...Self.maximumCoordinate).contains(seat.y),
                    width.map({ seat.x <= $0 }) ?? true, height.map({ seat.y <= $0 }) ?? true
                else {
                    throw Self.invalid("\(seatPlace): x and y lie within the drawing (0 to its width and height).")
                }
                let id = Self.seatID(section: section.id, row: row.label, number: seat.number)
                guard seatIDs.insert(id).inserted else {
                    throw Self.invalid(
                        "\(seatPlace): the seat \(id) (row \(row.label), seat \(seat.number)) appears twice.")
                }
            }
        }
    }

    private static func checkSectionID(_ id: String, _ place: String) throws {
        guard (1...40).contains(id.count),
            id.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") })
        else {
            throw invalid("\(place).id is 1 to 40 lower-case letters, digits or '-' (it starts the seats' ids).")
        }
    }

    private static func text(_ value: String, _ field: String, limit: Int) throws {
        guard !value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, value.count <= limit else {
            throw invalid("\(field) is 1 to \(limit) characters.")
        }
    }

    static func isColor(_ value: String) -> Bool {
        value.count == 7 && value.first == "#" && value.dropFirst().allSatisfy(\.isHexDigit)
    }

    static func invalid(_ message: String) -> ConciergeError {
        ConciergeError(.invalidInput, code: "invalid_layout", message: message)
    }

    static func tooLarge(_ message: String) -> ConciergeError {
        ConciergeError(.invalidInput, code: "layout_too_large", message: message)
    }
}
