import Foundation

/// The events scenarios of `concierge bench http`: buyers racing for the seats of a 2,000-seat
/// show, and the seat map of such a show (plain, and gzip-compressed for a client that asks).
enum EventsLoadScenarios {
    static let names = ["seats", "seat-map", "seat-map-gzip"]
    /// The scenarios that write: they run after every read scenario.
    static let writes = ["seats"]

    static func named(_ name: String, fixture: EventsLoadFixture) -> LoadScenario? {
        switch name {
        case "seats": seats(fixture)
        case "seat-map": seatMap(fixture)
        case "seat-map-gzip": seatMapGzip(fixture)
        default: nil
        }
    }

    /// The seat statuses of the whole 2,000-seat show, as the app polls them while a buyer
    /// chooses (`GET /shows/{id}/seats`: every seat with its price and status).
    static func seatMap(_ fixture: EventsLoadFixture) -> LoadScenario {
        LoadScenario(name: "seat-map", summary: "GET /events/api/shows/{id}/seats (2,000 seats)") { connection, _, _ in
            try await connection.send(.get("/events/api/shows/\(fixture.mapShowID)/seats")).expect(200, "seat map")
        }
    }

    /// The same seat map asked for with `Accept-Encoding: gzip`, as browsers and the apps' HTTP
    /// stacks ask: what compressing it costs (docs/operators/compression.md). Against a server
    /// with CONCIERGE_COMPRESSION=off, or a build before compression, it is the plain answer.
    static func seatMapGzip(_ fixture: EventsLoadFixture) -> LoadScenario {
        LoadScenario(name: "seat-map-gzip", summary: "seat-map with Accept-Encoding: gzip") { connection, _, _ in
            let request = LoadRequest(
                method: .GET, uri: "/events/api/shows/\(fixture.mapShowID)/seats",
                headers: [("Accept-Encoding", "gzip")])
            try await connection.send(request).expect(200, "seat map (gzip)")
        }
    }

    /// One paid order per operation: hold seats (`seat-checkout`), pay in the sandbox checkout,
    /// and count the order with its seats in `fixture.shows`' ledger. Most buyers ask for the
    /// best 1–4 seats; one in eight names two adjacent seats in the two front rows, and when a
    /// racer has one of them (409) takes the best two instead, as a buyer would. When best
    /// available finds no room, the server's 409 is the same whether the show is full or racers
    /// took its picks three times over, so the buyer asks how many seats are left: under one row
    /// (40) the show counts as sold out, the next show goes on sale and the buyer asks again
    /// there; otherwise it asks again on the same show. Every operation ends in a paid order, so
    /// the figure is orders/s; the leftover seats of a sold-out show stay unsold.
    static func seats(_ fixture: EventsLoadFixture) -> LoadScenario {
        LoadScenario(name: "seats", summary: "seat-checkout → sandbox pay (2,000-seat shows, contended)") {
            connection, worker, iteration in
            let (show, opened) = try await holdSeats(
                seed: worker &* 7919 &+ iteration, token: fixture.buyerTokens[worker], shows: fixture.shows,
                ledger: fixture.ledger, on: connection)
            guard let path = LoadRequest.path(of: opened.url) else {
                throw LoadError("seat-checkout answered no checkout URL")
            }
            try await connection.send(.payInSandbox(path)).expect(303, "sandbox checkout")
            fixture.ledger.record(show: show, seats: opened.seatIds)
        }
    }

    /// Holds seats for one order on the show on sale in `shows`, as a buyer would (see `seats`):
    /// named seats taken by a racer give way to the best two, a sold-out show moves on to the
    /// next one. Conflicts, sold-out answers and lost races are counted in `ledger`.
    static func holdSeats(
        seed: Int, token: String, shows: ShowRotation, ledger: SeatLedger, on connection: HTTPConnection
    ) async throws -> (show: String, opened: OpenedCheckout) {
        var show = await shows.current
        var request = SeatRequest(seed: seed)
        for _ in 0..<20 {
            let response = try await connection.send(
                .postJSON("/events/api/seat-checkout", request.json(show: show), token: token))
            if response.status == 200 { return (show, try response.decode(OpenedCheckout.self)) }
            guard response.status == 409, response.errorCode == "seats_unavailable" else {
                throw LoadError("seat-checkout: \(response.summary)")
            }
            if case .named = request {
                ledger.countConflict()
                request = .best(quantity: 2)
            } else if try await seatsLeft(show, on: connection) < EventsLoadFixture.seatsPerRow {
                ledger.countSoldOut()
                show = try await shows.show(after: show)
            } else {
                ledger.countLostRace()
            }
        }
        throw LoadError("no seats after twenty tries (show \(show))")
    }

    static func seatsLeft(_ show: String, on connection: HTTPConnection) async throws -> Int {
        struct Show: Decodable { let availableSeats: Int }
        let response = try await connection.send(.get("/events/api/shows/\(show)"))
        try response.expect(200, "show")
        return try response.decode(Show.self).availableSeats
    }

    /// What a buyer asks for.
    enum SeatRequest {
        case named([String])
        case best(quantity: Int)

        init(seed: Int) {
            if seed % 8 == 0 {
                // Two adjacent seats in row A or B of the front section, near the middle.
                let row = EventsLoadFixture.rowLabel(seed / 8 % 2)
                let first = 14 + seed / 16 % 12
                self = .named(["front-\(row)\(first)", "front-\(row)\(first + 1)"])
            } else {
                self = .best(quantity: 1 + seed % 4)
            }
        }

        func json(show: String) -> String {
            switch self {
            case .named(let seats):
                #"{"showId":"\#(show)","specificSeatIds":["\#(seats.joined(separator: #"",""#))"]}"#
            case .best(let quantity):
                #"{"showId":"\#(show)","quantity":\#(quantity)}"#
            }
        }
    }

    /// The part of the `seat-checkout` answer a buyer needs.
    struct OpenedCheckout: Decodable, Sendable {
        let url: String
        let sessionId: String
        let orderId: String
        let seatIds: [String]
    }
}
