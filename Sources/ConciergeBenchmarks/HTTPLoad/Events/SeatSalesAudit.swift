import Foundation

/// After the seats scenario: every show it sold, checked through the admin API and the seat map
/// against the buyers' own ledger. A seat is sold twice when two paid orders hold it (on the
/// server's listing or in the buyers' ledger); the seats of the paid orders must be the seats the
/// map shows sold and the box office counts sold.
public struct SeatSalesAudit: Sendable, Codable {
    public let shows: Int
    public let paidOrders: Int
    /// The seats of every paid order, added up.
    public let seatsOfPaidOrders: Int
    /// Seats the seat maps show `sold`.
    public let soldOnSeatMaps: Int
    public let seatsSoldTwice: Int
    /// Named seats someone else had first (409), and best-available answers that the show was full.
    public let namedSeatConflicts: Int
    public let soldOutAnswers: Int
    /// Best-available 409s ("no room") while the show still had a row's worth of seats free.
    public let bestAvailableLostRaces: Int
    /// Each disagreement between the ledger, the orders, the map and the counts, in words.
    public let mismatches: [String]

    public var clean: Bool { seatsSoldTwice == 0 && mismatches.isEmpty }

    static func run(port: Int, fixture: EventsLoadFixture) async throws -> SeatSalesAudit {
        let shows = await fixture.shows.sold
        let ledger = fixture.ledger.totals
        return try await HTTPConnection.with(host: "127.0.0.1", port: port) { connection in
            var paidOrders = 0
            var paidSeats = 0
            var soldOnMaps = 0
            var soldTwice = ledger.seatsBoughtTwice
            var mismatches: [String] = []
            for show in shows {
                let orders = try await paidSeatLists(show: show, on: connection)
                var owners: [String: Int] = [:]
                for seats in orders { for seat in seats { owners[seat, default: 0] += 1 } }
                soldTwice += owners.values.filter { $0 > 1 }.count
                let seatsOfOrders = orders.reduce(0) { $0 + $1.count }
                let onMap = try await soldOnSeatMap(show: show, on: connection)
                let counts = try await boxOfficeCounts(show: show, on: connection)
                paidOrders += orders.count
                paidSeats += seatsOfOrders
                soldOnMaps += onMap
                if seatsOfOrders != onMap || seatsOfOrders != counts.sold {
                    mismatches.append(
                        "\(show): paid orders hold \(seatsOfOrders) seats, the map shows \(onMap) sold, "
                            + "the counts \(counts.sold)")
                }
                if counts.reserved != 0 { mismatches.append("\(show): \(counts.reserved) seats still held") }
                let bought = ledger.orders[show] ?? 0
                if bought != orders.count || counts.confirmedOrders != orders.count {
                    mismatches.append(
                        "\(show): buyers paid \(bought) orders, the server lists \(orders.count) paid, "
                            + "the counts say \(counts.confirmedOrders)")
                }
            }
            return SeatSalesAudit(
                shows: shows.count, paidOrders: paidOrders, seatsOfPaidOrders: paidSeats, soldOnSeatMaps: soldOnMaps,
                seatsSoldTwice: soldTwice, namedSeatConflicts: ledger.conflicts, soldOutAnswers: ledger.soldOutAnswers,
                bestAvailableLostRaces: ledger.lostRaces,
                mismatches: mismatches)
        }
    }

    /// The seat ids of each confirmed order of `show`, every page of the admin listing.
    static func paidSeatLists(show: String, on connection: HTTPConnection) async throws -> [[String]] {
        try await paidOrders(show: show, on: connection).map { $0.seats.map(\.id) }
    }

    /// An order as the admin listing answers it (the parts the audits read).
    struct ListedOrder: Decodable, Sendable {
        struct Seat: Decodable, Sendable { let id: String }
        let id: String
        let status: String
        let seats: [Seat]
    }

    /// Every confirmed order of `show`, every page of the admin listing.
    static func paidOrders(show: String, on connection: HTTPConnection) async throws -> [ListedOrder] {
        var orders: [ListedOrder] = []
        var cursor: String? = "0"
        while let offset = cursor {
            let response = try await connection.send(
                .get(
                    "/events/api/admin/orders?showId=\(show)&status=confirmed&limit=100&cursor=\(offset)",
                    token: EventsLoadFixture.adminToken))
            try response.expect(200, "admin orders")
            orders += try response.decode([ListedOrder].self)
            cursor = response.headers.first(name: "X-Next-Cursor")
        }
        return orders
    }

    static func soldOnSeatMap(show: String, on connection: HTTPConnection) async throws -> Int {
        try await seatStatuses(show: show, on: connection).values.filter { $0 == "sold" }.count
    }

    /// Every seat of `show`'s seat map with its status (`available`, `reserved`, `sold`).
    static func seatStatuses(show: String, on connection: HTTPConnection) async throws -> [String: String] {
        struct Seat: Decodable {
            let id: String
            let status: String
        }
        let response = try await connection.send(.get("/events/api/shows/\(show)/seats"))
        try response.expect(200, "seat map")
        return Dictionary(try response.decode([Seat].self).map { ($0.id, $0.status) }) { first, _ in first }
    }

    struct Counts: Decodable {
        let sold: Int
        let reserved: Int
        let confirmedOrders: Int
    }

    static func boxOfficeCounts(show: String, on connection: HTTPConnection) async throws -> Counts {
        let response = try await connection.send(
            .get("/events/api/admin/shows/\(show)/counts", token: EventsLoadFixture.adminToken))
        try response.expect(200, "box office counts")
        return try response.decode(Counts.self)
    }
}
