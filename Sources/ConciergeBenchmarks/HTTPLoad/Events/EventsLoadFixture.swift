import ConciergeModels
import Foundation

/// What the events scenarios share, set up through the public and admin APIs before the clock
/// starts: a 2,000-seat hall, its first shows, and one verified buyer per connection.
struct EventsLoadFixture: Sendable {
    /// The admin token the benchmark gives its server (`CONCIERGE_ADMIN_TOKEN`, 32+ characters).
    static let adminToken = "concierge-bench-admin-token-0123456789abcdef"

    let venueID: String
    /// One events session per connection: each buyer is signed up and has confirmed the email.
    let buyerTokens: [String]
    /// The shows the seats scenario sells, one after the other.
    let shows: ShowRotation
    /// The show the seat-map scenario reads (never sold: reads run before writes).
    let mapShowID: String
    /// What the buyers paid for, for the audit.
    let ledger = SeatLedger()

    static func prepare(port: Int, buyers: Int) async throws -> EventsLoadFixture {
        let (venueID, mapShowID) = try await HTTPConnection.with(host: "127.0.0.1", port: port) { connection in
            let venueID = try await importVenue(on: connection)
            return (venueID, try await createShow(venueID: venueID, number: 0, on: connection))
        }
        let tokens = try await signUpBuyers(buyers, port: port)
        let shows = try await ShowRotation.start(port: port, venueID: venueID)
        return EventsLoadFixture(venueID: venueID, buyerTokens: tokens, shows: shows, mapShowID: mapShowID)
    }

    // MARK: The hall

    /// Sections best first, rows front first: (id, name, rows). 40 seats a row, 2,000 in all.
    static let sections = [("front", "Front Stalls", 5), ("stalls", "Stalls", 30), ("balcony", "Balcony", 15)]
    static let seatsPerRow = 40
    static var seatCount: Int { sections.reduce(0) { $0 + $1.2 } * seatsPerRow }

    /// A theatre's row labels: A…Z, then AA, BB, … (letters only, so `stalls-A12` and
    /// `stalls-AA12` stay apart).
    static func rowLabel(_ index: Int) -> String {
        let letter = String(UnicodeScalar(UInt8(65 + index % 26)))
        return String(repeating: letter, count: index / 26 + 1)
    }

    static func layoutJSON() -> String {
        var y = 100
        let sections = sections.map { id, name, rows in
            let rowsJSON = (0..<rows).map { row in
                y += 20
                let seats = (1...seatsPerRow).map { #"{"number":\#($0),"x":\#(20 + $0 * 20),"y":\#(y)}"# }
                return #"{"label":"\#(rowLabel(row))","seats":[\#(seats.joined(separator: ","))]}"#
            }
            y += 40
            return #"{"id":"\#(id)","name":"\#(name)","rows":[\#(rowsJSON.joined(separator: ","))]}"#
        }
        return #"{"name":"Bench Arena","location":"Zurich","timeZone":"Europe/Zurich","sections":["#
            + sections.joined(separator: ",") + "]}"
    }

    static func importVenue(on connection: HTTPConnection) async throws -> String {
        let response = try await connection.send(
            .postJSON("/events/api/admin/venues", layoutJSON(), token: adminToken))
        try response.expect(201, "import the bench venue")
        guard let id = (try JSONSerialization.jsonObject(with: response.data) as? [String: Any])?["id"] as? String
        else { throw LoadError("the venue import answered no id") }
        return id
    }

    /// A show 60 days ahead, front stalls dearest; `number` only names it.
    static func createShow(venueID: String, number: Int, on connection: HTTPConnection) async throws -> String {
        let startsAt = WireDate.string(from: Date().addingTimeInterval(60 * 86_400))
        let body = """
            {"venueId":"\(venueID)","title":"Bench Night \(number)","startsAt":"\(startsAt)","currency":"CHF",\
            "categories":[{"name":"A","priceCents":9000,"sections":["front"]},\
            {"name":"B","priceCents":6000,"sections":["stalls"]},{"name":"C","priceCents":3000,"sections":["balcony"]}]}
            """
        let response = try await connection.send(.postJSON("/events/api/admin/shows", body, token: adminToken))
        try response.expect(201, "create a bench show")
        return try response.decode(Events.Show.self).id
    }

    // MARK: Buyers

    /// Signs up `count` buyers on eight connections at once (bcrypt is the slow part) and opens
    /// each one's verification link from the dev outbox. Their addresses are
    /// `<emailPrefix><n>@bench.example`: a drill on a database it reuses passes a fresh prefix.
    static func signUpBuyers(_ count: Int, port: Int, emailPrefix: String = "buyer") async throws -> [String] {
        let lanes = min(8, count)
        let tokens = try await withThrowingTaskGroup(of: [(Int, String)].self) { group in
            for lane in 0..<lanes {
                group.addTask {
                    try await HTTPConnection.with(host: "127.0.0.1", port: port) { connection in
                        var mine: [(Int, String)] = []
                        for buyer in stride(from: lane, to: count, by: lanes) {
                            mine.append(
                                (buyer, try await verifiedBuyer(buyer, emailPrefix: emailPrefix, on: connection)))
                        }
                        return mine
                    }
                }
            }
            return try await group.reduce(into: [(Int, String)]()) { $0 += $1 }
        }
        return tokens.sorted { $0.0 < $1.0 }.map(\.1)
    }

    static func verifiedBuyer(_ number: Int, emailPrefix: String = "buyer", on connection: HTTPConnection)
        async throws -> String
    {
        let email = "\(emailPrefix)\(number)@bench.example"
        let signedUp = try await connection.send(
            .postJSON(
                "/events/api/auth/signup",
                #"{"email":"\#(email)","password":"a long bench passphrase","name":"Buyer \#(number)"}"#))
        try signedUp.expect(201, "events signup")
        // Sign-up answers "check your mail" without a session (it must not tell a taken address).
        let signedIn = try await connection.send(
            .postJSON("/events/api/auth/signin", #"{"email":"\#(email)","password":"a long bench passphrase"}"#))
        try signedIn.expect(200, "events signin")
        guard let token = try signedIn.decode(Events.AuthResponse.self).token else {
            throw LoadError("events signin answered no token")
        }
        // Confirmed with the buyer's own session: a link opened without it is the first proof of
        // the mailbox and ends every session made before it (docs/accounts.md).
        let link = try await verificationToken(to: email, on: connection)
        try await connection.send(
            .postJSON("/events/api/auth/verify-email", #"{"token":"\#(link)","email":"\#(email)"}"#, token: token)
        ).expect(200, "verify-email")
        return token
    }

    /// The token of the confirmation link once the outbox worker has sent it (set-up only, so
    /// polling is fine here).
    static func verificationToken(to email: String, on connection: HTTPConnection) async throws -> String {
        for _ in 0..<600 {
            let outbox = try await connection.send(.get("/dev/outbox?to=\(email.queryEscaped)"))
            try outbox.expect(200, "dev outbox")
            let listing = try JSONSerialization.jsonObject(with: outbox.data) as? [String: Any]
            let bodies = (listing?["messages"] as? [[String: Any]] ?? []).compactMap { $0["body"] as? String }
            for body in bodies.reversed() {
                if let range = body.range(of: "/events/verify-email?token=") {
                    return String(body[range.upperBound...].prefix { $0 != "&" && !$0.isWhitespace })
                }
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw LoadError("no verification email reached \(email) within 30 s")
    }
}
