import ConciergeCore
import ConciergeModels
import ConciergeTestSupport
import Foundation
import HummingbirdTesting

@testable import ConciergeServer

/// A small hall for the admin API's tests: "front" (rows A and B of six seats) and "back" (row
/// C of eight), drawn 30 apart; the first seat of row A is accessible.
enum TestLayouts {
    static let admin = EventsCheckInHTTPTests.scanner

    static var smallHall: VenueLayout {
        func row(_ label: String, seats: Int, y: Int) -> VenueLayout.Row {
            VenueLayout.Row(
                label: label,
                seats: (1...seats).map {
                    VenueLayout.Seat(number: $0, x: 40 + $0 * 30, y: y, accessible: label == "A" && $0 == 1)
                })
        }
        return VenueLayout(
            name: "Kleine Bühne", location: "Bern", timeZone: "Europe/Zurich",
            sections: [
                .init(
                    id: "front", name: "Front", color: "#aa0000",
                    rows: [row("A", seats: 6, y: 100), row("B", seats: 6, y: 130)]),
                .init(id: "back", name: "Back", color: nil, rows: [row("C", seats: 8, y: 200)]),
            ])
    }

    static func json(_ layout: VenueLayout) throws -> String {
        String(decoding: try JSONEncoder().encode(layout), as: UTF8.self)
    }

    struct ImportedVenue: Decodable {
        let id: String
        let seats: Int
    }

    /// Imports `layout` and answers the new venue's id.
    static func importVenue(_ client: some TestClientProtocol, _ layout: VenueLayout = smallHall) async throws
        -> String
    {
        let response = try await client.send(.post, "/events/api/admin/venues", json: try json(layout), token: admin)
        guard response.status == .created else {
            throw TestFailure("venue import: \(response.status) \(String(buffer: response.body))")
        }
        return try response.decode(ImportedVenue.self).id
    }

    static func venueCount(_ client: some TestClientProtocol) async throws -> Int {
        try await client.send(.get, "/events/api/admin/venues", token: admin).decode([ImportedVenue].self).count
    }
}

extension TestLayouts {
    /// The small hall's two sections at 40 and 20 CHF; `extra` adds or overrides fields (`"onSaleFrom": …`).
    static func showJSON(venue: String, startsAt: Date, extra: String = "") -> String {
        """
        {"venueId": "\(venue)", "title": "Kammerkonzert", "description": "Strings.", "startsAt": "\(WireDate.string(from: startsAt))",
         "currency": "CHF", \(extra.isEmpty ? "" : extra + ",")
         "categories": [{"name": "A", "priceCents": 4000, "sections": ["front"]},
                        {"name": "B", "priceCents": 2000, "color": "#00aa00", "sections": ["back"]}]}
        """
    }

    /// Imports the small hall and creates a show on it a week after `now`: answers the show's id.
    static func createShow(_ client: some TestClientProtocol, now: Date, extra: String = "") async throws -> String {
        let venue = try await importVenue(client)
        let response = try await client.send(
            .post, "/events/api/admin/shows",
            json: showJSON(venue: venue, startsAt: now.addingTimeInterval(7 * 86_400), extra: extra), token: admin)
        guard response.status == .created else {
            throw TestFailure("show: \(response.status) \(String(buffer: response.body))")
        }
        return try response.decode(Events.Show.self).id
    }
}
