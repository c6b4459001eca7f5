import Foundation

/// The stays scenarios of `concierge bench http`. Each connection's customer is the rides
/// fixture's signed-in customer: a rides session is a platform session, and stays gives its
/// account a guest profile on the first request, so no bcrypt runs inside the measurement.
enum StaysLoadScenarios {
    static let names = ["stays-rooms", "stays-reserve"]
    /// The scenarios that write: they run after every read scenario, with rides' `book`.
    static let writes = ["stays-reserve"]

    /// The server's stays settings for a run: the demo hotel's four room types with rooms
    /// enough that reserving for the whole run never fills a night (each reservation stays), so
    /// every request is a reservation like any other and none is a `sold_out`.
    static func serverEnvironment(in directory: URL) throws -> [String: String] {
        let url = directory.appendingPathComponent("stays-bench-hotel.json")
        let json = """
            {"name": "Bench Hotel", "roomTypes": [
              {"id": 1, "type": "Individual", "capacity": 1, "rooms": 100000, "baseRateCents": 12000, "image": "individual.svg"},
              {"id": 2, "type": "Double", "capacity": 2, "rooms": 100000, "baseRateCents": 18000, "image": "double.svg"},
              {"id": 3, "type": "Family", "capacity": 4, "rooms": 100000, "baseRateCents": 26000, "image": "family.svg", "minimumStay": 2},
              {"id": 4, "type": "Suite", "capacity": 3, "rooms": 100000, "baseRateCents": 45000, "image": "suite.svg"}]}
            """
        try json.write(to: url, atomically: true, encoding: .utf8)
        return ["CONCIERGE_STAYS_HOTEL_PATH": url.path]
    }

    static func named(_ name: String, fixture: BenchmarkFixture) -> LoadScenario? {
        switch name {
        case "stays-rooms": rooms(fixture)
        case "stays-reserve": reserve(fixture)
        default: nil
        }
    }

    /// A search over 30 nights starting on one of the next 300 days, for two guests: every
    /// room type's counts for 30 nights, the rates and the taxes.
    static func rooms(_ fixture: BenchmarkFixture) -> LoadScenario {
        LoadScenario(name: "stays-rooms", summary: "GET /stays/rooms (30 nights, signed in)") {
            connection, worker, iteration in
            let start = day((worker * 7919 + iteration) % 300 + 2)
            let end = day((worker * 7919 + iteration) % 300 + 32)
            try await connection.send(
                .get("/stays/rooms?dStartTime=\(start)&dEndTime=\(end)&guests=2", token: fixture.sessionTokens[worker])
            ).expect(200, "stays rooms")
        }
    }

    /// One reservation per operation, as the app confirms one: a one- or two-night stay of a
    /// Double on one of 300 check-in days, priced on the server, its nights taken by the
    /// conditional write, the reservation, its idempotency key and its confirmation email in
    /// one transaction. Reservations stay (the bench hotel has rooms for all of them), so the
    /// figure is the write alone, like rides' `book`.
    static func reserve(_ fixture: BenchmarkFixture) -> LoadScenario {
        LoadScenario(name: "stays-reserve", summary: "POST /stays/appointment (signed in, Idempotency-Key)") {
            connection, worker, iteration in
            let seed = worker * 7919 + iteration
            let night = seed % 300 + 2
            let body =
                #"{"roomHotelId":2,"checkIn":\#(noon(night)),"checkOut":\#(noon(night + 1 + seed % 2)),"guests":2}"#
            try await connection.send(
                .postJSON(
                    "/stays/appointment", body, token: fixture.sessionTokens[worker],
                    headers: [("Idempotency-Key", "bench-\(UUID().uuidString)")])
            ).expect(201, "stays appointment")
        }
    }

    /// `YYYY-MM-DD` `days` from now (UTC; the hotel's zone is within a day of it). A format
    /// style, not a `DateFormatter` made per request: the load generator shares the cores with
    /// the server, and an ICU formatter per request cost about as much as the search it asks for.
    static func day(_ days: Int) -> String {
        Date().addingTimeInterval(Double(days) * 86_400).formatted(Self.dayStyle)
    }

    private static let dayStyle = Date.ISO8601FormatStyle(timeZone: TimeZone(secondsFromGMT: 0)!).year().month().day()
        .dateSeparator(.dash)

    /// Epoch milliseconds of noon UTC `days` from today.
    static func noon(_ days: Int) -> Int64 {
        let today = (Date().timeIntervalSince1970 / 86_400).rounded(.down) * 86_400
        return Int64((today + Double(days) * 86_400 + 12 * 3600) * 1000)
    }
}
