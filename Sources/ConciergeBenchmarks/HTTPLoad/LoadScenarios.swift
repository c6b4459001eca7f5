import ConciergeModels
import Foundation

/// The scenarios `concierge bench http` measures, each against the same server in one run
/// (`signup-flood` on a server of its own: `SignUpFloodRun`).
enum LoadScenarios {
    static let names =
        ["health", "places", "pricing", "book", "flow"] + StaysLoadScenarios.names
        + EventsLoadScenarios.names + [SignUpFloodScenarios.name]

    static func named(_ name: String, fixture: BenchmarkFixture) -> LoadScenario? {
        switch name {
        case "health": health
        case "places": places
        case "pricing": pricing(fixture)
        case "book": book(fixture)
        case "flow": flow(fixture)
        default:
            StaysLoadScenarios.named(name, fixture: fixture)
                ?? fixture.events.flatMap { EventsLoadScenarios.named(name, fixture: $0) }
        }
    }

    /// The framework's own ceiling: routing, middleware and a tiny JSON body, no storage.
    static let health = LoadScenario(name: "health", summary: "GET /health") { connection, _, _ in
        try await connection.send(.get("/health")).expect(200, "health")
    }

    static let places = LoadScenario(name: "places", summary: "GET /rides/places/autocomplete") {
        connection, worker, iteration in
        let inputs = BenchmarkFixture.autocompleteInputs
        let input = inputs[(worker + iteration) % inputs.count]
        try await connection.send(.get("/rides/places/autocomplete?input=\(input.queryEscaped)"))
            .expect(200, "autocomplete")
    }

    static func pricing(_ fixture: BenchmarkFixture) -> LoadScenario {
        LoadScenario(name: "pricing", summary: "GET /rides/pricing") { connection, worker, iteration in
            try await connection.send(.get(fixture.pricingURI(worker * 7919 + iteration))).expect(200, "pricing")
        }
    }

    /// Signed-in booking creation, each with its own Idempotency-Key as ConciergeKit sends it.
    static func book(_ fixture: BenchmarkFixture) -> LoadScenario {
        LoadScenario(name: "book", summary: "POST /rides/app-book (signed in)") { connection, worker, iteration in
            let request = LoadRequest.book(
                fixture.bookingBody(worker * 7919 + iteration), token: fixture.sessionTokens[worker])
            try await connection.send(request).expect(200, "app-book")
        }
    }

    private static let newCustomers = Counter()

    /// A new customer's whole first ride: sign in with the SMS code, price, book, pay in the
    /// sandbox, and see the booking confirmed.
    static func flow(_ fixture: BenchmarkFixture) -> LoadScenario {
        LoadScenario(name: "flow", summary: "sign-in → price → book → pay → confirmed") {
            connection, worker, iteration in
            let seed = worker * 7919 + iteration
            // A new customer every time, across rounds too.
            let phone = BenchmarkFixture.phone(prefix: 79, number: newCustomers.next())
            let token = try await BenchmarkFixture.signIn(phone: phone, on: connection)
            try await connection.send(.get(fixture.pricingURI(seed))).expect(200, "pricing")
            let booked = try await connection.send(.book(fixture.bookingBody(seed), token: token))
            try booked.expect(200, "app-book")
            let booking = try booked.decode(BookingResponse.self)
            guard let reference = booking.quoteReference,
                let checkoutPath = booking.checkoutUrl.flatMap(LoadRequest.path(of:))
            else { throw LoadError("app-book answered without a reference or checkout URL") }
            let paid = try await connection.send(.payInSandbox(checkoutPath))
            try paid.expect(303, "sandbox checkout")
            let detail = try await connection.send(.get("/rides/bookings/\(reference)", token: token))
            try detail.expect(200, "booking detail")
            let status = try detail.decode(BookingDetailResponse.self).booking.status
            guard status == "confirmed" else { throw LoadError("booking \(reference) is \(status), not confirmed") }
        }
    }
}

/// Numbers handed out once each, from any task.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func next() -> Int {
        lock.withLock {
            value += 1
            return value
        }
    }
}
