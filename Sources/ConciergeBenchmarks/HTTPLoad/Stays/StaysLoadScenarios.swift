import ConciergeModels
import Foundation

/// The stays scenarios of `concierge bench http`. Each connection's customer is the rides
/// fixture's signed-in customer: a rides session is a platform session, and stays gives its
/// account a guest profile on the first request, so no bcrypt runs inside the measurement.
enum StaysLoadScenarios {
    static let names = ["stays-rooms", "stays-reserve"]

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

    /// A one-night reservation of a Double on one of 300 nights, then its cancellation, so
    /// the inventory stays where it was however long the run: the conditional write per night,
    /// the reservation, its email in the outbox, and the same on the way back.
    static func reserve(_ fixture: BenchmarkFixture) -> LoadScenario {
        LoadScenario(name: "stays-reserve", summary: "POST /stays/appointment + DELETE (signed in)") {
            connection, worker, iteration in
            let token = fixture.sessionTokens[worker]
            let night = (worker * 7919 + iteration) % 300 + 2
            let body = #"{"roomHotelId":2,"checkIn":\#(noon(night)),"checkOut":\#(noon(night + 1)),"guests":2}"#
            let made = try await connection.send(.postJSON("/stays/appointment", body, token: token))
            try made.expect(201, "stays appointment")
            guard let id = try made.decode(Stays.APIResponse<Stays.Reservation>.self).data?.id else {
                throw LoadError("stays appointment answered without a reservation")
            }
            try await connection.send(
                LoadRequest(
                    method: .DELETE, uri: "/stays/appointment/\(id)", headers: [("Authorization", "Bearer \(token)")])
            ).expect(200, "stays cancel")
        }
    }

    /// `YYYY-MM-DD` `days` from now (UTC; the hotel's zone is within a day of it).
    static func day(_ days: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: Date().addingTimeInterval(Double(days) * 86_400))
    }

    /// Epoch milliseconds of noon UTC `days` from today.
    static func noon(_ days: Int) -> Int64 {
        let today = (Date().timeIntervalSince1970 / 86_400).rounded(.down) * 86_400
        return Int64((today + Double(days) * 86_400 + 12 * 3600) * 1000)
    }
}
