import ConciergeModels
import Foundation

/// The crash drill's stays side: a hotel of its own (written to a file the server reads) with a
/// prepaid room type and one paid at the hotel, a few rooms of each so the buyers race for the
/// last room of a night, and stays guests signed up through the stays API.
struct StaysDrillFixture: Sendable {
    struct Guest: Sendable {
        let username: String
        let guestID: Int64
        let token: String
    }

    let guests: [Guest]
    /// The first night of round 1, in days from today: each round sells its own `nightsPerRound`
    /// nights after it, so a round filled by the one before still has rooms.
    let firstNight: Int

    /// The Double: paid in advance in the sandbox checkout.
    static let prepaidRoomType: Int64 = 2
    /// The Individual: paid at the hotel, confirmed at once.
    static let atHotelRoomType: Int64 = 1
    /// Rooms of each type: few, so the buyers take the last room of a night from each other.
    static let rooms = 3
    static let nightsPerRound = 6
    /// Cancellation is free until this many hours before check-in: the rounds' nights (40 days
    /// ahead and later) cancel free, `lateNights` cost their first night.
    static let freeCancelHours = 30 * 24
    /// Nights, in days from today, whose prepaid rooms are paid and then cancelled late, under
    /// the fee; shared by every round (never kept, so they free up again).
    static let lateNights = 2..<8

    /// `CONCIERGE_STAYS_HOTEL_PATH` for the drill's server (the hotel file, written to
    /// `directory`) and its free cancellation hours.
    static func serverEnvironment(in directory: URL) throws -> [String: String] {
        let url = directory.appendingPathComponent("crash-hotel.json")
        let json = """
            {"name": "Crash Drill Inn", "maxDaysAhead": 1000, "roomTypes": [
              {"id": \(atHotelRoomType), "type": "Individual", "capacity": 1, "rooms": \(rooms), "baseRateCents": 12000},
              {"id": \(prepaidRoomType), "type": "Double", "capacity": 2, "rooms": \(rooms), "baseRateCents": 18000,
               "paymentPolicy": "prepay"}]}
            """
        try json.write(to: url, atomically: true, encoding: .utf8)
        return [
            "CONCIERGE_STAYS_HOTEL_PATH": url.path, "CONCIERGE_STAYS_FREE_CANCEL_HOURS": String(freeCancelHours),
        ]
    }

    /// Rooms of a room type, as the hotel file says.
    static func rooms(ofType type: Int64) -> Int? {
        type == prepaidRoomType || type == atHotelRoomType ? rooms : nil
    }

    /// Registers and signs in `count` guests (`POST /stays/user/register`, `POST /stays/login`).
    static func prepare(port: Int, guests count: Int) async throws -> StaysDrillFixture {
        // Names and nights new every run, so a reused PostgreSQL database never finds them taken.
        let run = Int.random(in: 0..<9_000_000)
        let guests = try await HTTPConnection.with(host: "127.0.0.1", port: port) { connection in
            var guests: [Guest] = []
            for index in 0..<count {
                let username = "crash\(run)g\(index)"
                let registered = try await connection.send(
                    .postJSON(
                        "/stays/user/register",
                        """
                        {"username": "\(username)", "firstName": "Crash", "lastName": "Drill \(index)",
                         "email": "\(username)@example.com", "phone": "+41 79 123 45 67",
                         "password": "correct horse battery"}
                        """))
                try registered.expect(201, "POST /stays/user/register")
                let login = try await connection.send(
                    .postJSON("/stays/login", #"{"username": "\#(username)", "password": "correct horse battery"}"#))
                try login.expect(200, "POST /stays/login")
                guard let user = try login.decode(Stays.APIResponse<Stays.User>.self).data else {
                    throw LoadError("POST /stays/login answered no user: \(login.summary)")
                }
                guests.append(Guest(username: username, guestID: user.guestId, token: user.token))
            }
            return guests
        }
        return StaysDrillFixture(guests: guests, firstNight: 40 + run % 400)
    }

    /// The nights of `round`: `nightsPerRound` from its first, in days from today.
    func nights(round: Int) -> Range<Int> {
        let first = firstNight + (round - 1) * Self.nightsPerRound
        return first..<(first + Self.nightsPerRound)
    }
}
