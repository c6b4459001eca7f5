import ConciergeCore
import ConciergeModels
import ConciergeTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// House seats: blocked seats look sold to buyers, best available skips them, naming one is a
/// 409, and a seat someone holds or bought cannot be blocked (nothing of that request is).
@Suite struct EventsHouseSeatsHTTPTests {
    struct HouseSeats: Decodable {
        let houseSeats: [String]
    }

    struct Counts: Decodable {
        let house: Int
        let available: Int
    }

    static func houseSeats(
        _ client: some TestClientProtocol, _ method: HTTPRequest.Method, show: String, _ seats: [String]
    ) async throws -> TestResponse {
        let ids = seats.map { "\"\($0)\"" }.joined(separator: ", ")
        return try await client.send(
            method, "/events/api/admin/shows/\(show)/house-seats", json: #"{"seats": [\#(ids)]}"#,
            token: TestLayouts.admin)
    }

    @Test(arguments: TestEngine.all)
    func houseSeatsAreSkippedByBestAvailableAndRefusedByName(engine: TestEngine) async throws {
        let app = try await EventsTestApp.make(engine, ["CONCIERGE_ADMIN_TOKEN": TestLayouts.admin])
        try await app.runWithWorker { client, worker in
            let show = try await TestLayouts.createShow(client, now: app.clock.now)
            let rowA = (1...6).map { "front-A\($0)" }
            let blocked = try await Self.houseSeats(client, .post, show: show, rowA)
            #expect(blocked.status == .ok)
            #expect(try blocked.decode(HouseSeats.self).houseSeats == rowA)
            // Blocking again changes nothing.
            #expect(try await Self.houseSeats(client, .post, show: show, ["front-A1"]).status == .ok)

            let seats = try await client.eventSeats(show)
            #expect(rowA.allSatisfy { seats[$0]?.status == .sold } && seats["front-B1"]?.status == .available)
            let svg = String(buffer: try await client.send(.get, "/events/api/shows/\(show)/seatmap.svg").body)
            #expect(svg.contains(#"id="front-A3" cx="130" cy="100" r="11" fill="\#(SeatMapSVG.soldColor)""#))
            let counts = try await client.send(.get, "/events/api/admin/shows/\(show)/counts", token: TestLayouts.admin)
                .decode(Counts.self)
            #expect(counts.house == 6 && counts.available == 14)

            let anna = try await client.eventsBuyer("anna@example.ch", worker: worker)
            let best = try await client.send(
                .post, "/events/api/seat-checkout", json: #"{"showId": "\#(show)", "quantity": 2, "section": "front"}"#,
                token: anna
            ).decode(Events.SeatCheckoutResponse.self)
            #expect(best.seatIds == ["front-B3", "front-B4"])
            let named = try await client.seatCheckout(anna, show: show, seats: ["front-A2", "back-C1"])
            #expect(named.status == .conflict)
            #expect(try named.decode(Events.SeatsUnavailable.self).unavailableSeatIds == ["front-A2"])
            #expect(try await client.eventSeats(show)["back-C1"]?.status == .available)

            // A held seat cannot be kept for the house, and nothing else of the request is.
            let refused = try await Self.houseSeats(client, .post, show: show, ["back-C8", "front-B3"])
            #expect(refused.status == .conflict)
            #expect(try refused.decode(Events.SeatsUnavailable.self).unavailableSeatIds == ["front-B3"])
            #expect(try await client.eventSeats(show)["back-C8"]?.status == .available)

            let released = try await Self.houseSeats(client, .delete, show: show, ["front-A1", "front-A2"])
            #expect(try released.decode(HouseSeats.self).houseSeats == Array(rowA.dropFirst(2)))
            #expect(try await client.seatCheckout(anna, show: show, seats: ["front-A1", "front-A2"]).status == .ok)
            let listed = try await client.send(
                .get, "/events/api/admin/shows/\(show)/house-seats", token: TestLayouts.admin)
            #expect(try listed.decode(HouseSeats.self).houseSeats.count == 4)
        }
    }

    @Test(arguments: TestEngine.all)
    func badHouseSeatRequestsAreRefused(engine: TestEngine) async throws {
        let app = try await EventsTestApp.make(engine, ["CONCIERGE_ADMIN_TOKEN": TestLayouts.admin])
        try await app.runWithWorker { client, _ in
            let unknown = try await Self.houseSeats(client, .post, show: "shw_demo_1", ["stalls-A1", "stalls-Z99"])
            #expect(unknown.status == .badRequest && unknown.errorBody?.code == "invalid_seats")
            #expect(try await client.eventSeats()["stalls-A1"]?.status == .available)
            let empty = try await Self.houseSeats(client, .post, show: "shw_demo_1", [])
            #expect(empty.status == .badRequest && empty.errorBody?.code == "invalid_seats")
            let twice = try await Self.houseSeats(client, .post, show: "shw_demo_1", ["stalls-A1", "stalls-A1"])
            #expect(twice.status == .badRequest)
            let noShow = try await Self.houseSeats(client, .post, show: "shw_nope", ["stalls-A1"])
            #expect(noShow.status == .notFound && noShow.errorBody?.code == "show_not_found")
            let malformed = try await client.send(
                .post, "/events/api/admin/shows/shw_demo_1/house-seats", json: #"{"seats": "A1"}"#,
                token: TestLayouts.admin)
            #expect(malformed.status == .badRequest && malformed.errorBody?.code == "invalid_request")
            let anonymous = try await client.send(
                .post, "/events/api/admin/shows/shw_demo_1/house-seats", json: #"{"seats": ["stalls-A1"]}"#)
            #expect(anonymous.status == .unauthorized)
        }
    }
}
