import ConciergeModels
import Foundation

/// What the scenarios share: known place ids, pickup times far enough ahead, and one signed-in
/// customer per connection, all set up through the public API before the clock starts.
struct BenchmarkFixture: Sendable {
    struct Place: Sendable {
        let id: String
        let description: String
    }

    let places: [Place]
    /// One session per connection, so the book scenario never waits on one customer's rows.
    let sessionTokens: [String]
    /// The first bookable pickup: three days ahead, on a 15-minute mark.
    let firstPickup: Date
    /// The events hall, shows and buyers; set up only when an events scenario runs.
    var events: EventsLoadFixture? = nil

    /// What customers type, for the places scenario.
    static let autocompleteInputs = [
        "zur", "Zürich", "ZRH", "gen", "Genève", "GVA", "bas", "Basel", "ber", "Bern", "lau", "Lausanne", "luz",
        "Luzern", "lug", "Lugano", "st. g", "St. Gallen", "win", "Winterthur", "zug", "davos", "st mor", "interl",
        "flughafen", "zurich airport", "geneve aeroport", "BSL", "montreux", "zermat",
    ]

    /// Where rides go from and to: the first suggestion for each.
    static let placeQueries = [
        "ZRH", "GVA", "BSL", "Zürich", "Genève", "Basel", "Bern", "Lausanne", "Luzern", "Lugano", "St. Gallen",
        "Winterthur", "Zug", "Davos", "St. Moritz", "Interlaken",
    ]

    static func prepare(port: Int, customers: Int) async throws -> BenchmarkFixture {
        try await HTTPConnection.with(host: "127.0.0.1", port: port) { connection in
            let places = try await lookUpPlaces(on: connection)
            var tokens: [String] = []
            for customer in 0..<customers {
                tokens.append(try await signIn(phone: phone(prefix: 78, number: customer), on: connection))
            }
            return BenchmarkFixture(places: places, sessionTokens: tokens, firstPickup: firstPickup())
        }
    }

    /// The first suggestion for each of `placeQueries`.
    static func lookUpPlaces(on connection: HTTPConnection) async throws -> [Place] {
        var places: [Place] = []
        for query in placeQueries {
            let response = try await connection.send(.get("/rides/places/autocomplete?input=\(query.queryEscaped)"))
            try response.expect(200, "autocomplete \(query)")
            let suggestions = try response.decode(PlacesAutocompleteResponse.self).suggestions
            guard let first = suggestions.first else { throw LoadError("no place found for '\(query)'") }
            places.append(Place(id: first.placeId, description: first.description))
        }
        return places
    }

    /// Three days from now, on the next 15-minute mark: bookable under the default 48 h rule.
    static func firstPickup(now: Date = Date()) -> Date {
        Date(timeIntervalSince1970: ((now.timeIntervalSince1970 + 3 * 86_400) / 900).rounded(.up) * 900)
    }

    /// A Swiss mobile number unique to `number` (below ten million).
    static func phone(prefix: Int, number: Int) -> String {
        "+41\(prefix)\(String(format: "%07d", number))"
    }

    /// The whole sign-in as an app does it, with the code read from the dev outbox.
    static func signIn(phone: String, on connection: HTTPConnection) async throws -> String {
        let sent = try await connection.send(.postJSON("/rides/sms-code-send", #"{"phone":"\#(phone)"}"#))
        try sent.expect(200, "sms-code-send")
        let outbox = try await connection.send(.get("/dev/outbox?to=\(phone.queryEscaped)"))
        try outbox.expect(200, "dev outbox")
        let listing = try JSONSerialization.jsonObject(with: outbox.data) as? [String: Any]
        let messages = listing?["messages"] as? [[String: Any]] ?? []
        // The newest sign-in code: a confirmation texted to the same phone may have come since.
        let codes = messages.compactMap { $0["body"] as? String }.filter { $0.contains("code is") }
        guard let body = codes.last, let code = oneTimeCode(in: body) else {
            throw LoadError("no code for \(phone) in the dev outbox")
        }
        let verified = try await connection.send(
            .postJSON("/rides/sms-code-verify", #"{"phone":"\#(phone)","code":"\#(code)"}"#))
        try verified.expect(200, "sms-code-verify")
        return try verified.decode(SMSCodeVerifyResponse.self).sessionToken
    }

    /// The first run of six digits in a message.
    static func oneTimeCode(in body: String) -> String? {
        var digits = ""
        for character in body {
            if character.isASCII, character.isNumber {
                digits.append(character)
                if digits.count == 6 { return digits }
            } else {
                digits = ""
            }
        }
        return nil
    }

    /// A trip between two different places and a pickup time, varied by `seed` so routes and
    /// prices are not all one cache entry.
    func trip(_ seed: Int) -> (from: Place, to: Place, pickup: String) {
        let from = places[seed % places.count]
        let to = places[(seed / places.count + 1 + seed) % places.count]
        let destination = to.id == from.id ? places[(seed + 1) % places.count] : to
        let pickup = firstPickup.addingTimeInterval(Double(seed % 96) * 900)
        return (from, destination, WireDate.string(from: pickup))
    }

    func bookingBody(_ seed: Int) -> String {
        let trip = trip(seed)
        return """
            {"pickup":{"placeId":"\(trip.from.id)","description":"\(trip.from.description)"},\
            "destination":{"placeId":"\(trip.to.id)","description":"\(trip.to.description)"},\
            "dateTime":"\(trip.pickup)","passengers":1,"vehicleClass":"business"}
            """
    }

    func pricingURI(_ seed: Int) -> String {
        let trip = trip(seed)
        return "/rides/pricing?originPlaceId=\(trip.from.id.queryEscaped)"
            + "&destinationPlaceId=\(trip.to.id.queryEscaped)&pickupDatetime=\(trip.pickup.queryEscaped)"
    }
}

extension LoadResponse {
    func expect(_ status: Int, _ what: String) throws {
        guard self.status == status else { throw LoadError("\(what): \(summary)") }
    }

    /// The status and the start of the body, for messages.
    var summary: String {
        "\(status) \(String(decoding: data.prefix(200), as: UTF8.self))"
    }

    /// The `code` of an error body.
    var errorCode: String? {
        (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["code"] as? String
    }
}

extension String {
    var queryEscaped: String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return addingPercentEncoding(withAllowedCharacters: allowed) ?? self
    }
}
