public import Foundation

/// The catalogue a dev server starts with, so the app has something to show on first start: one
/// hall of 336 seats in three sections and five shows in the weeks after `now`.
public enum DemoCatalogue {
    public static let venueID = "ven_demo_hall"

    /// The hall as an imported layout: the demo goes through the same path as the admin API's import.
    public static let layout: VenueLayout = {
        // (id, name, colour, rows, seats per row)
        let blocks: [(String, String, String, Int, Int)] = [
            ("stalls", "Stalls", "#c0392b", 10, 20),
            ("circle", "Circle", "#2980b9", 5, 16),
            ("gallery", "Gallery", "#27ae60", 4, 14),
        ]
        let letters = Array("ABCDEFGHJKLMNOPQRSTUVWXYZ")
        var sections: [VenueLayout.Section] = []
        var rowCounter = 0
        var y = 140
        for (rank, (id, name, color, rows, perRow)) in blocks.enumerated() {
            var sectionRows: [VenueLayout.Row] = []
            for rowIndex in 0..<rows {
                let letter = String(letters[rowCounter])
                rowCounter += 1
                let left = 400 - perRow * 15
                sectionRows.append(
                    VenueLayout.Row(
                        label: letter,
                        seats: (1...perRow).map { number in
                            VenueLayout.Seat(
                                number: number, x: left + (number - 1) * 30, y: y,
                                accessible: rank == 0 && rowIndex == 0 && (number == 1 || number == perRow))
                        }))
                y += 30
            }
            y += 40
            sections.append(VenueLayout.Section(id: id, name: name, color: color, rows: sectionRows))
        }
        return VenueLayout(
            name: "Concierge Hall", location: "Zurich", timeZone: "Europe/Zurich", width: 800, height: y,
            sections: sections)
    }()

    public static let venue = layout.venue(id: venueID)

    /// Five shows at 19:30 Zurich time, 3 to 30 days after `now`.
    public static func shows(after now: Date) -> [EventShow] {
        let titles: [(String, String, [Int])] = [
            (
                "The Magic Flute", "Mozart's opera in a new staging, sung in German with surtitles.",
                [12_000, 8_000, 4_000]
            ),
            ("Swan Lake", "Tchaikovsky's ballet with the full orchestra.", [9_500, 6_500, 3_500]),
            ("Jazz Night: Trio Zürisee", "An evening of standards and new pieces.", [5_000, 3_500, 2_000]),
            ("Beethoven's Ninth", "The symphony and its choral finale.", [11_000, 7_500, 4_500]),
            ("Stand-up in English", "Four comedians, one evening.", [4_500, 3_000, 2_000]),
        ]
        let days = [3, 7, 14, 21, 30]
        let zone = TimeZone(identifier: venue.timeZone) ?? .gmt
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return titles.enumerated().map { index, entry in
            let day = calendar.date(byAdding: .day, value: days[index], to: now) ?? now
            let startsAt = calendar.date(bySettingHour: 19, minute: 30, second: 0, of: day) ?? day
            let categories = ["A", "B", "C"]
            return EventShow(
                id: "shw_demo_\(index + 1)", venueID: venueID, title: entry.0, description: entry.1,
                imageURL: "/events/static/show-\(index + 1).svg", startsAt: startsAt, currency: "CHF", cancelled: false,
                prices: venue.sections.enumerated().map { position, section in
                    ShowPrice(
                        sectionID: section.id, category: categories[position], priceCents: entry.2[position],
                        color: section.color)
                })
        }
    }
}
