import ConciergeCore
import ConciergeModels
import ConciergeTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// Importing a venue from a layout JSON: stored on both engines and read back as imported;
/// every bad layout is a 400 with the events error body and writes nothing.
@Suite struct EventsVenuesHTTPTests {
    struct Venue: Decodable {
        struct Section: Decodable {
            let id: String
            let color: String
            let rank: Int
            let rows: Int
            let seats: Int
        }

        let id: String
        let name: String
        let width: Int
        let height: Int
        let seats: Int
        let sections: [Section]
        let layout: VenueLayout?
    }

    @Test(arguments: TestEngine.all)
    func anImportedLayoutIsStoredAndReadBackAsImported(engine: TestEngine) async throws {
        let app = try await EventsTestApp.make(engine, ["CONCIERGE_ADMIN_TOKEN": TestLayouts.admin])
        try await app.runWithWorker { client, _ in
            let json = try TestLayouts.json(TestLayouts.smallHall)
            #expect(try await client.send(.post, "/events/api/admin/venues", json: json).status == .unauthorized)
            let created = try await client.send(
                .post, "/events/api/admin/venues", json: json, token: TestLayouts.admin)
            #expect(created.status == .created)
            let venue = try created.decode(Venue.self)
            #expect(venue.id.hasPrefix("ven_") && venue.seats == 20 && venue.name == "Kleine Bühne")
            #expect(venue.sections.map(\.id) == ["front", "back"] && venue.sections.map(\.rank) == [1, 2])
            #expect(venue.sections.map(\.rows) == [2, 1] && venue.sections.map(\.seats) == [12, 8])
            // No colour of its own: the palette's second; no size: the seats' extent and a margin.
            #expect(venue.sections[1].color == "#2980b9" && venue.width == 280 + 40 && venue.height == 240)

            let listed = try await client.send(.get, "/events/api/admin/venues", token: TestLayouts.admin)
                .decode([Venue].self)
            #expect(Set(listed.map(\.id)) == [venue.id, DemoCatalogue.venueID])
            let read = try await client.send(.get, "/events/api/admin/venues/\(venue.id)", token: TestLayouts.admin)
                .decode(Venue.self)
            let layout = try #require(read.layout)
            #expect(layout.sections.map(\.rows) == TestLayouts.smallHall.sections.map(\.rows))
            let map = try await client.send(.get, "/events/api/shows/shw_demo_1/seatmap").decode(Events.SeatMap.self)
            #expect(map.sections.flatMap(\.seats).count == DemoCatalogue.venue.seats.count)
            let missing = try await client.send(.get, "/events/api/admin/venues/ven_nope", token: TestLayouts.admin)
            #expect(missing.status == .notFound && missing.errorBody?.code == "venue_not_found")
        }
    }

    @Test(arguments: TestEngine.all)
    func badLayoutsAreRefusedWithTheErrorBodyAndWriteNothing(engine: TestEngine) async throws {
        let app = try await EventsTestApp.make(engine, ["CONCIERGE_ADMIN_TOKEN": TestLayouts.admin])
        try await app.runWithWorker { client, _ in
            var duplicateSeat = TestLayouts.smallHall
            duplicateSeat.sections[0].rows[1].seats[3].number = 2
            var duplicateRow = TestLayouts.smallHall
            duplicateRow.sections[1].rows[0].label = "A"
            duplicateRow.sections[1].id = "front"
            var emptySection = TestLayouts.smallHall
            emptySection.sections[1].rows = []
            var emptyRow = TestLayouts.smallHall
            emptyRow.sections[0].rows[0].seats = []
            var noSections = TestLayouts.smallHall
            noSections.sections = []
            var badZone = TestLayouts.smallHall
            badZone.timeZone = "Mars/Olympus"
            var outside = TestLayouts.smallHall
            outside.width = 100
            var badColor = TestLayouts.smallHall
            badColor.sections[0].color = "red"
            var enormous = TestLayouts.smallHall
            enormous.sections[1].rows = (0..<21).map { row in
                VenueLayout.Row(
                    label: "R\(row)", seats: (1...1_000).map { VenueLayout.Seat(number: $0, x: $0, y: row) })
            }
            let cases: [(String, String)] = [
                (try TestLayouts.json(duplicateSeat), "invalid_layout"),
                (try TestLayouts.json(duplicateRow), "invalid_layout"),
                (try TestLayouts.json(emptySection), "invalid_layout"),
                (try TestLayouts.json(emptyRow), "invalid_layout"),
                (try TestLayouts.json(noSections), "invalid_layout"),
                (try TestLayouts.json(badZone), "invalid_layout"),
                (try TestLayouts.json(outside), "invalid_layout"),
                (try TestLayouts.json(badColor), "invalid_layout"),
                (try TestLayouts.json(enormous), "layout_too_large"),
                (#"{"name": "Hall", "sections": [{"#, "invalid_layout"),
                (#"{"name": "Hall", "location": "Bern", "timeZone": "UTC", "sections": "many"}"#, "invalid_layout"),
                ("[1, 2, 3]", "invalid_layout"),
                (String(repeating: " ", count: 5 * 1_048_576), "layout_too_large"),
            ]
            for (body, code) in cases {
                let response = try await client.send(
                    .post, "/events/api/admin/venues", json: body, token: TestLayouts.admin)
                #expect(response.status == .badRequest, "\(code): \(response.status)")
                let error = try response.decode(ErrorBody.self)
                #expect(error.code == code && !error.error.isEmpty, "\(error.error)")
            }
            let duplicate = try await client.send(
                .post, "/events/api/admin/venues", json: try TestLayouts.json(duplicateSeat), token: TestLayouts.admin
            ).errorBody
            #expect(duplicate?.error.contains("front-B2") == true)
            #expect(try await TestLayouts.venueCount(client) == 1)
        }
    }
}
