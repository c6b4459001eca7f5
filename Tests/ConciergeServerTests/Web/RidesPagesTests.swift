import ConciergeTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

@testable import ConciergeServer

/// The rides pages through HTTP in process: sign-in by SMS code, the pricing step, a booking
/// through the sandbox checkout to the web confirmation, my trips and cancelling, refusals shown
/// next to their fields with what was typed kept, and dispatch on /ops/rides.
@Suite struct RidesPagesTests {
    static let adminToken = "rides-pages-admin-token-0123456789abcdef"
    /// The test clock is Friday 2027-01-15, 09:00 in Zurich: Monday is three days ahead.
    static let monday = "2027-01-18"
    static let saturday = "2027-01-16"

    static func quotePath(
        pickup: String = "zurich airport", destination: String = "bern", date: String = monday,
        time: String = "10:00", passengers: Int = 1, flight: String = "", extra: String = ""
    ) -> String {
        func escaped(_ text: String) -> String { WebBrowser.formEscaped(text) }
        return "/rides/quote?pickup=\(escaped(pickup))&destination=\(escaped(destination))&date=\(date)"
            + "&time=\(escaped(time))&passengers=\(passengers)&flight=\(escaped(flight))\(extra)"
    }

    @Test func aCustomerSignsInWithTheTextedCodeAndAWrongCodeIsSaidNextToItsField() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            var browser = WebBrowser(client: client)
            let start = try await browser.get("/rides")
            #expect(start.status == 200 && start.contains(#"action="/rides/sign-in""#))
            let badPhone = try await browser.post("/rides/sign-in", form: [("phone", "12"), ("next", "/rides")])
            #expect(badPhone.status == 400)
            #expect(badPhone.contains(#"id="phone-error" role="alert""#) && badPhone.contains(#"aria-invalid="true""#))
            #expect(badPhone.contains(#"value="12""#))
            let codePage = try await browser.post(
                "/rides/sign-in", form: [("phone", "+41 79 555 01 01"), ("next", "/rides/trips")])
            #expect(codePage.status == 200 && codePage.contains("We sent a code to +41795550101"))
            // A new code at once is refused on the code page, in the service's words.
            let resend = try await browser.post(
                "/rides/sign-in", form: [("phone", "+41795550101"), ("next", "/rides/trips"), ("resend", "1")])
            #expect(resend.status == 429 && resend.contains(#"class="errors" role="alert"><p>A code was just sent."#))
            let wrong = try await browser.post(
                "/rides/sign-in/code", form: [("code", "000000"), ("next", "/rides/trips")])
            #expect(wrong.status == 400)
            #expect(wrong.contains(#"id="code-error" role="alert">That code is not right."#))
            #expect(wrong.contains(#"aria-invalid="true" aria-describedby="code-error""#))
            let code = try await client.latestCode()
            let trips = try await browser.post("/rides/sign-in/code", form: [("code", code), ("next", "/rides/trips")])
            #expect(trips.status == 200 && trips.contains("<h1>My trips</h1>"))
            #expect(browser.cookies["concierge_session"] != nil && browser.cookies["concierge_rides_phone"] == nil)
            let form = try await browser.get("/rides")
            #expect(form.contains("<h1>Book a ride</h1>") && form.contains(#"action="/rides/quote#quote""#))
            let german = try await browser.get("/rides", headers: [.acceptLanguage: "de-CH"])
            #expect(german.contains("<h1>Fahrt buchen</h1>"))
            let out = try await browser.post("/rides/sign-out", form: [])
            #expect(out.contains("You are signed out.") && browser.cookies["concierge_session"] == nil)
        }
    }

    @Test func thePricingStepOffersTheMatchesThenPricesTheThreeClasses() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            var browser = try await Self.signedIn(client)
            // Typed text without a pick: the matches as radio buttons, nothing priced yet.
            let matches = try await browser.get(Self.quotePath(passengers: 4, flight: "lx 318"))
            #expect(matches.status == 200)
            #expect(matches.contains(#"name="pickupPick" value="gz_iata_ZRH" checked"#))
            #expect(matches.contains(#"name="destinationPick" value="gz_geo_2661552" checked"#))
            #expect(matches.contains(#"value="zurich airport""#) && !matches.contains("Choose your car"))
            // Picked: priced in CHF per class; four passengers cannot take business or first.
            let quote = try await browser.get(
                Self.quotePath(
                    passengers: 4, flight: "lx 318", extra: "&pickupPick=gz_iata_ZRH&destinationPick=gz_geo_2661552"))
            #expect(quote.status == 200 && quote.contains("Choose your car"))
            #expect(quote.contains(#"name="pickupId" value="gz_iata_ZRH""#))
            for vehicleClass in ["business", "first", "xl"] {
                #expect(quote.contains(#"id="class-\#(vehicleClass)" name="vehicleClass""#))
            }
            #expect(quote.contains(#"value="business" disabled"#) && quote.contains(#"value="xl" checked required"#))
            #expect(quote.firstMatch(#"class-price">(CHF [0-9’',.]+)<"#) != nil)
            #expect(quote.contains("Airport pickup") && quote.contains("Mon, 18 Jan 2027"))
            // The same prices as the API's pricing.
            let api = try await client.send(
                .get,
                "/rides/pricing?originPlaceId=gz_iata_ZRH&destinationPlaceId=gz_geo_2661552&pickupDatetime=2027-01-18T09:00:00.000Z"
            )
            let xl = try #require(String(buffer: api.body).firstMatch(of: /"xl":\{[^}]*"priceCents":(\d+)/)?.1)
            #expect(quote.contains(WebFormat.money(cents: Int(xl)!, .en)))
        }
    }

    @Test func refusalsAreSaidNextToTheirFieldsAndTheTypedTextStays() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            var browser = try await Self.signedIn(client)
            let picks = "&pickupPick=gz_iata_ZRH&destinationPick=gz_geo_2661552"
            let tooSoon = try await browser.get(Self.quotePath(date: Self.saturday, extra: picks))
            #expect(tooSoon.status == 400)
            #expect(tooSoon.contains(#"id="date-error" role="alert">Rides must be booked at least 48 hours ahead."#))
            #expect(
                tooSoon.contains(#"name="date" type="date" value="2027-01-16""#) && !tooSoon.contains("Choose your car")
            )
            let unknown = try await browser.get(Self.quotePath(pickup: "qqxxzzvvww", flight: "not a flight"))
            #expect(unknown.status == 400)
            #expect(unknown.contains(#"id="pickup-error" role="alert">No place matches “qqxxzzvvww”"#))
            #expect(unknown.contains(#"id="flight-error" role="alert">&#39;not a flight&#39; is not a flight number."#))
            #expect(unknown.contains(#"value="not a flight""#))
            let german = try await browser.get(
                Self.quotePath(date: Self.saturday, extra: picks), headers: [.acceptLanguage: "de"])
            #expect(german.contains("Fahrten müssen mindestens 48 Stunden im Voraus gebucht werden."))
            // The booking's own refusal (too many passengers for the class) lands next to its field.
            let form = try await browser.get(Self.quotePath(passengers: 1, extra: picks))
            let key = try #require(form.firstMatch(#"name="key" value="([^"]+)""#))
            let refused = try await browser.post(
                "/rides/book", form: Self.booking(key: key, passengers: 5, vehicleClass: "business"))
            #expect(refused.status == 400)
            #expect(refused.contains(#"id="passengers-error" role="alert">The business class seats at most 3"#))
        }
    }

    @Test func aBookingGoesThroughTheSandboxCheckoutToTheConfirmationAndIsCancelled() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            var browser = try await Self.signedIn(client)
            let quote = try await browser.get(
                Self.quotePath(flight: "lx 318", extra: "&pickupPick=gz_iata_ZRH&destinationPick=gz_geo_2661552"))
            let key = try #require(quote.firstMatch(#"name="key" value="([^"]+)""#))
            let booked = try await browser.post(
                "/rides/book", form: Self.booking(key: key, vehicleClass: "first"), follow: false)
            #expect(booked.status == 303)
            let checkout = try #require(booked.location.flatMap(URL.init(string:)))
            #expect(checkout.path.hasPrefix("/sandbox/checkout/"))
            // Pressing Book twice books once: the same checkout.
            let again = try await browser.post(
                "/rides/book", form: Self.booking(key: key, vehicleClass: "first"), follow: false)
            #expect(again.location == booked.location)
            let paid = try await browser.post(checkout.path, form: [("outcome", "paid")], csrf: false, follow: false)
            let back = try #require(paid.location.flatMap(URL.init(string:)))
            #expect(back.path.hasPrefix("/rides/trips/VRM-") && back.query?.hasPrefix("t=") == true)
            let reference = String(back.path.dropFirst("/rides/trips/".count))
            let confirmation = try await browser.get("\(back.path)?\(back.query ?? "")")
            #expect(confirmation.status == 200 && confirmation.contains("<h1>Your ride is booked</h1>"))
            #expect(confirmation.contains(#"id="status">Confirmed<"#) && confirmation.contains("LX318"))
            #expect(
                confirmation.contains("Mon, 18 Jan 2027 at 10:00") && confirmation.contains("Free cancellation until"))
            // The app's return page is unchanged for app bookings; the API sees the web booking too.
            let trips = try await browser.get("/rides/trips")
            #expect(trips.contains(#"data-reference="\#(reference)""#) && trips.contains("Confirmed"))
            let cancelled = try await browser.post("/rides/trips/\(reference)/cancel", form: [])
            #expect(cancelled.status == 200 && cancelled.contains("<h1>Ride cancelled</h1>"))
            #expect(cancelled.contains(#"role="status"><p>The ride is cancelled."#))
        }
    }

    @Test func cancellingLateIsRefusedWithThePolicyAndOthersCannotSeeTheTrip() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            var browser = try await Self.signedIn(client)
            let (reference, returnPath) = try await Self.bookAndPay(&browser)
            app.clock.advance(by: 2.5 * 86_400)
            let late = try await browser.post("/rides/trips/\(reference)/cancel", form: [])
            #expect(late.status == 409)
            #expect(
                late.contains(
                    #"role="alert" id="cancel-error"><p>Rides can be cancelled free of charge until 24 hours"#))
            // Another customer: 404 without the secret, the page with it.
            var stranger = try await Self.signedIn(client, phone: "+41795550202")
            let hidden = try await stranger.get("/rides/trips/\(reference)")
            #expect(hidden.status == 404)
            let shared = try await stranger.get(returnPath)
            #expect(shared.status == 200 && shared.contains(reference) && !shared.contains("Cancel this ride"))
        }
    }

    @Test func anOperatorAssignsADriverAndMovesTheRideOnOpsRides() async throws {
        let app = try await TestApp.make(engine: .sqlite, environment: ["CONCIERGE_ADMIN_TOKEN": Self.adminToken])
        try await app.run { client in
            var customer = try await Self.signedIn(client)
            let (reference, _) = try await Self.bookAndPay(&customer)
            var ops = WebBrowser(client: client)
            _ = try await ops.get("/ops/sign-in")
            let list = try await ops.post("/ops/sign-in", form: [("token", Self.adminToken), ("next", "/ops/rides")])
            #expect(list.status == 200 && list.contains("<h1>Ride dispatch</h1>"))
            #expect(list.contains(#"<a href="/ops/rides/\#(reference)">"#))
            _ = try await ops.get("/ops/rides/\(reference)")
            let missing = try await ops.post(
                "/ops/rides/\(reference)/status",
                form: [
                    ("status", "driver_assigned"), ("driver_name", "Marco Rossi"), ("driver_phone", ""),
                    ("driver_vehicle", "Mercedes S"), ("driver_plate", "ZH 123"),
                ])
            #expect(missing.status == 400)
            #expect(
                missing.contains(
                    #"id="driver_phone" name="driver_phone" type="tel" value="" required aria-invalid="true""#))
            #expect(missing.contains(#"id="driver-error" role="alert">Assigning a driver needs"#))
            #expect(missing.contains(#"value="Marco Rossi""#))
            let assigned = try await ops.post(
                "/ops/rides/\(reference)/status",
                form: [
                    ("status", "driver_assigned"), ("driver_name", "Marco Rossi"), ("driver_phone", "+41791112233"),
                    ("driver_vehicle", "Mercedes S"), ("driver_plate", "ZH 123"),
                ])
            #expect(assigned.contains("The ride is now: Driver assigned."))
            #expect(assigned.contains(#"id="driver">Marco Rossi"#))
            let skipped = try await ops.post("/ops/rides/\(reference)/status", form: [("status", "completed")])
            #expect(skipped.status == 409 && skipped.contains(#"class="errors" role="alert""#))
            let onTheWay = try await ops.post("/ops/rides/\(reference)/status", form: [("status", "en_route")])
            #expect(onTheWay.contains(#"id="status">Driver on the way<"#))
            // The customer sees the driver on the trip page.
            let trip = try await customer.get("/rides/trips/\(reference)")
            #expect(trip.contains("Marco Rossi") && trip.contains("Driver on the way"))
            // Customers are sent to the operator sign-in.
            let refused = try await customer.get("/ops/rides", follow: false)
            #expect(refused.status == 303 && refused.location?.hasPrefix("/ops/sign-in") == true)
        }
    }

    @Test func withoutAnAdminTokenThereIsNoDispatchPage() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            var browser = WebBrowser(client: client)
            let dispatch = try await browser.get("/ops/rides")
            #expect(dispatch.status == 404)
        }
    }

    // MARK: Helpers

    static func signedIn(_ client: any TestClientProtocol, phone: String = "+41795550101") async throws -> WebBrowser {
        var browser = WebBrowser(client: client)
        _ = try await browser.get("/rides")
        _ = try await browser.post("/rides/sign-in", form: [("phone", phone), ("next", "/rides")])
        let code = try await client.latestCode()
        let form = try await browser.post("/rides/sign-in/code", form: [("code", code), ("next", "/rides")])
        guard form.contains("<h1>Book a ride</h1>") else { throw TestFailure("web sign-in failed: \(form.status)") }
        return browser
    }

    static func booking(key: String, passengers: Int = 1, vehicleClass: String) -> [(String, String)] {
        [
            ("pickup", "Zurich Airport, Switzerland"), ("pickupId", "gz_iata_ZRH"),
            ("pickupChosen", "Zurich Airport, Switzerland"), ("destination", "Bern, Bern, Switzerland"),
            ("destinationId", "gz_geo_2661552"), ("destinationChosen", "Bern, Bern, Switzerland"),
            ("date", monday), ("time", "10:00"), ("passengers", String(passengers)), ("flight", "lx 318"),
            ("key", key), ("vehicleClass", vehicleClass),
        ]
    }

    /// Books Monday's ride and pays it on the sandbox; the reference and the return path.
    static func bookAndPay(_ browser: inout WebBrowser) async throws -> (String, String) {
        let quote = try await browser.get(
            quotePath(extra: "&pickupPick=gz_iata_ZRH&destinationPick=gz_geo_2661552"))
        let key = try #require(quote.firstMatch(#"name="key" value="([^"]+)""#))
        let booked = try await browser.post(
            "/rides/book", form: booking(key: key, vehicleClass: "business"), follow: false)
        let checkout = try #require(booked.location.flatMap(URL.init(string:)))
        let paid = try await browser.post(checkout.path, form: [("outcome", "paid")], csrf: false, follow: false)
        let back = try #require(paid.location.flatMap(URL.init(string:)))
        return (String(back.path.dropFirst("/rides/trips/".count)), "\(back.path)?\(back.query ?? "")")
    }
}
