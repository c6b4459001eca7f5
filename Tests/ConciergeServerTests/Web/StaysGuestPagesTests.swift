import ConciergeTestSupport
import Foundation
import HTTPTypes
import Testing

@testable import ConciergeServer

/// The stays pages a guest uses, through HTTP in process: search, registration with per-field
/// messages, sign-in, reserving (paid at the hotel, and prepaid through the sandbox checkout back
/// to the page), my reservations upcoming and past, and cancelling under the policy.
@Suite struct StaysGuestPagesTests {
    /// The test clock's day is Friday 2027-01-15, 09:00 in Zurich.
    static let search = "/stays/search?checkIn=\(StaysFixtures.monday)&checkOut=\(StaysFixtures.wednesday)&guests=2"

    @Test func theSearchShowsRoomsWithPhotosAndPricesForTheStay() async throws {
        let app = try await TestApp.make(engine: .sqlite, environment: StaysFixtures.environment)
        try await app.run { client in
            var browser = WebBrowser(client: client)
            let start = try await browser.get("/stays")
            #expect(start.status == 200 && start.contains(#"action="/stays/search#results-heading""#))
            let results = try await browser.get(Self.search)
            #expect(results.status == 200)
            // Two weekday nights of a Double for two: 2 × CHF 180 + city tax 2 × 2 × CHF 2.50.
            #expect(results.contains(#"src="/stays/images/double.svg" alt="Double room: "#))
            #expect(results.contains("CHF 370.00") && results.contains("Total for 2 nights"))
            #expect(results.contains("Suite") && results.contains("Family") && !results.contains(">Individual<"))
            #expect(
                results.contains(
                    "/stays/reserve?room=2&amp;checkIn=\(StaysFixtures.monday)&amp;checkOut=\(StaysFixtures.wednesday)&amp;guests=2"
                ))
            let german = try await browser.get(Self.search, headers: [.acceptLanguage: "de-CH"])
            #expect(german.contains("Gesamt für 2 Nächte") && german.contains("CHF 370.00"))
            let backwards = try await browser.get(
                "/stays/search?checkIn=\(StaysFixtures.wednesday)&checkOut=\(StaysFixtures.monday)&guests=2")
            #expect(backwards.status == 400)
            #expect(backwards.contains(#"id="checkOut-error" role="alert">Check-out must be after check-in."#))
            #expect(backwards.contains(#"value="\#(StaysFixtures.wednesday)""#))
        }
    }

    @Test func registrationSaysEveryRefusedFieldBesideItAndKeepsTheRest() async throws {
        let app = try await TestApp.make(engine: .sqlite, environment: StaysFixtures.environment)
        try await app.run { client in
            var browser = WebBrowser(client: client)
            _ = try await browser.get("/stays/register")
            let refused = try await browser.post(
                "/stays/register",
                form: [
                    ("username", "a"), ("firstName", ""), ("lastName", "Meier"), ("email", "anna@"),
                    ("phone", "+41 79 123 45 67"), ("password", "short"),
                ])
            #expect(refused.status == 400)
            for field in ["username", "firstName", "email", "password"] {
                #expect(refused.contains(#"id="\#(field)-error" role="alert""#), "\(field)")
            }
            #expect(!refused.contains(#"id="lastName-error""#) && !refused.contains(#"id="phone-error""#))
            #expect(refused.contains("Enter a valid email address") && refused.contains("Please correct the 4 fields"))
            #expect(refused.contains(#"value="Meier""#) && refused.contains(#"value="anna@""#))
            #expect(!refused.contains(#"value="short""#))

            let made = try await browser.post(
                "/stays/register",
                form: [
                    ("username", "anna.m"), ("firstName", "Anna"), ("lastName", "Meier"),
                    ("email", "anna@example.ch"), ("phone", "+41 79 123 45 67"), ("password", "correct horse battery"),
                ], follow: false)
            // Registering does not sign in (the same page follows a taken address): sign in next.
            #expect(made.status == 303 && made.location == "/stays/sign-in?done=registered")
            #expect(browser.cookies["concierge_session"] == nil)
            let checkMail = try await browser.get("/stays/sign-in?done=registered")
            #expect(checkMail.contains(#"class="notice" role="status""#) && checkMail.contains("Check your mail"))

            var other = WebBrowser(client: client)
            _ = try await other.get("/stays/register?lang=de")
            let taken = try await other.post(
                "/stays/register",
                form: [
                    ("username", "ANNA.M"), ("firstName", "Anna"), ("lastName", "Meier"),
                    ("email", "anna2@example.ch"), ("phone", "+41 79 123 45 67"),
                    ("password", "correct horse battery"),
                ])
            #expect(taken.status == 409 && taken.contains(#"id="username-error""#))
            #expect(taken.contains("Dieser Benutzername ist vergeben.") && taken.contains(#"value="anna2@example.ch""#))
        }
    }

    @Test func signInTakesTheUserNameOrEmailAndSaysAWrongPasswordBesideIt() async throws {
        let app = try await TestApp.make(engine: .sqlite, environment: StaysFixtures.environment)
        try await app.run { client in
            _ = try await client.staysSignUp("bert")
            var browser = WebBrowser(client: client)
            let mine = try await browser.get("/stays/reservations", follow: false)
            #expect(mine.status == 303 && mine.location == "/stays/sign-in?next=%2Fstays%2Freservations")
            _ = try await browser.get("/stays/sign-in")
            let signedOut = try await browser.post(
                "/stays/reserve",
                form: [
                    ("room", "2"), ("checkIn", StaysFixtures.monday), ("checkOut", StaysFixtures.wednesday),
                    ("guests", "2"),
                ], follow: false)
            #expect(
                signedOut.location
                    == "/stays/sign-in?next=%2Fstays%2Freserve%3Froom%3D2%26checkIn%3D\(StaysFixtures.monday)%26checkOut%3D\(StaysFixtures.wednesday)%26guests%3D2"
            )
            _ = try await browser.get("/stays/sign-in?next=/stays/reservations")
            let wrong = try await browser.post(
                "/stays/sign-in",
                form: [("login", "bert"), ("password", "wrong password"), ("next", "/stays/reservations")])
            #expect(wrong.status == 401 && wrong.contains(#"id="password-error" role="alert""#))
            #expect(wrong.contains(#"value="bert""#))
            let signedIn = try await browser.post(
                "/stays/sign-in",
                form: [
                    ("login", "bert@example.ch"), ("password", "correct horse battery"),
                    ("next", "/stays/reservations"),
                ],
                follow: false)
            #expect(signedIn.status == 303 && signedIn.location == "/stays/reservations")
            let list = try await browser.get("/stays/reservations")
            #expect(list.status == 200 && list.contains("You have no upcoming stays."))
        }
    }

    @Test func aPrepaidRoomIsPaidOnTheSandboxCheckoutAndTheGuestComesBackToTheReservation() async throws {
        let app = try await StaysPrepay.app(.sqlite, rooms: 2)
        try await app.run { client in
            var browser = WebBrowser(client: client)
            try await Self.register(&browser, "carla")
            let page = try await browser.get(
                "/stays/reserve?room=2&checkIn=\(StaysFixtures.monday)&checkOut=\(StaysFixtures.wednesday)&guests=2")
            #expect(page.status == 200 && page.contains("CHF 370.00") && page.contains("Reserve and pay"))
            #expect(page.contains("Free cancellation until"))
            let key = try #require(page.firstMatch(#"name="key" value="([^"]+)""#))
            let form = [
                ("room", "2"), ("checkIn", StaysFixtures.monday), ("checkOut", StaysFixtures.wednesday),
                ("guests", "2"), ("purpose", "Holiday"), ("key", key),
            ]
            let sent = try await browser.post("/stays/reserve", form: form, follow: false)
            #expect(sent.status == 303 && browser.cookies["concierge_stays_checkout"] != nil)
            let checkout = try Self.path(try #require(sent.location))
            #expect(checkout.hasPrefix("/sandbox/checkout/"))
            // A second click on the same form answers the same reservation and the same checkout.
            _ = try await browser.get(
                "/stays/reserve?room=2&checkIn=\(StaysFixtures.monday)&checkOut=\(StaysFixtures.wednesday)&guests=2")
            let again = try await browser.post("/stays/reserve", form: form, follow: false)
            #expect(try Self.path(try #require(again.location)) == checkout)

            let paid = try await browser.post(checkout, form: [("outcome", "paid")], csrf: false, follow: false)
            let back = try Self.path(try #require(paid.location))
            #expect(back.hasPrefix("/stays/payment/return?session="))
            // The app's return page (no cookie) still answers the wrapper in JSON.
            let api = try await client.send(.get, back)
            #expect(String(buffer: api.body).contains(#""status":200"#))
            let landed = try await browser.get(back)
            #expect(landed.status == 200)
            #expect(landed.contains("Paid. Your stay is confirmed") && landed.contains("Paid online on"))
            #expect(browser.cookies["concierge_stays_checkout"] == nil)
            let list = try await browser.get("/stays/reservations")
            #expect(list.contains("Confirmed") && list.contains("CHF 370.00"))
            let cancel = try await browser.get("/stays/reservations/1/cancel")
            #expect(cancel.contains("you get back everything you paid, CHF 370.00"))
        }
    }

    @Test func anUnpaidPrepaidReservationOffersItsCheckoutUntilItsDeadlineAndCancelsFree() async throws {
        let app = try await StaysPrepay.app(.sqlite, rooms: 2)
        try await app.run { client in
            var browser = WebBrowser(client: client)
            try await Self.register(&browser, "emil")
            let page = try await browser.get(
                "/stays/reserve?room=2&checkIn=\(StaysFixtures.monday)&checkOut=\(StaysFixtures.wednesday)&guests=2")
            let key = try #require(page.firstMatch(#"name="key" value="([^"]+)""#))
            let sent = try await browser.post(
                "/stays/reserve",
                form: [
                    ("room", "2"), ("checkIn", StaysFixtures.monday), ("checkOut", StaysFixtures.wednesday),
                    ("guests", "2"), ("key", key),
                ], follow: false)
            let checkout = try Self.path(try #require(sent.location))
            let secret = try #require(browser.cookies["concierge_stays_checkout"])

            let waiting = try await browser.get("/stays/reservations/1")
            #expect(waiting.contains("Waiting for payment") && waiting.contains(">Pay now</a>"))
            #expect(
                waiting.contains(checkout) && waiting.contains("data-countdown-until=") && waiting.contains(">30:00<"))
            var stranger = WebBrowser(client: client)
            let link = try await stranger.get("/stays/paid?session=\(secret)")
            #expect(link.status == 200 && link.contains("The payment has not arrived yet."))
            #expect(link.contains("/stays/sign-in?next=%2Fstays%2Freservations%2F1"))

            let cancel = try await browser.get("/stays/reservations/1/cancel")
            #expect(cancel.contains("It is not paid yet, so cancelling is free"))
            let cancelled = try await browser.post("/stays/reservations/1/cancel", form: [])
            #expect(cancelled.contains("Cancelled free of charge.") && !cancelled.contains(">Pay now</a>"))
        }
    }

    @Test func myReservationsListUpcomingAndPastAndCancellingFollowsThePolicy() async throws {
        let app = try await TestApp.make(engine: .sqlite, environment: StaysFixtures.environment)
        try await app.run { client in
            var browser = WebBrowser(client: client)
            try await Self.register(&browser, "dora")
            // Today (Friday, check-in in 6 hours: the first night is charged) and in two weeks (free).
            let soon = try await Self.reserve(&browser, from: "2027-01-15", to: "2027-01-16")
            #expect(soon.status == 200 && soon.contains("Reserved. Your confirmation code is"))
            let later = try await Self.reserve(&browser, from: StaysFixtures.monday, to: StaysFixtures.wednesday)
            #expect(later.contains("You pay CHF 370.00 at the hotel."))

            let lateCancel = try await browser.get("/stays/reservations/1/cancel")
            // A Friday night: CHF 180 + 15 % weekend.
            #expect(lateCancel.contains("the first night (CHF 207.00) is charged"))
            let freeCancel = try await browser.get("/stays/reservations/2/cancel")
            #expect(freeCancel.status == 200 && freeCancel.contains("Cancelling now is free of charge."))
            let cancelled = try await browser.post("/stays/reservations/2/cancel", form: [])
            #expect(cancelled.status == 200 && cancelled.contains("Cancelled free of charge."))
            let token = try #require(freeCancel.csrfToken)
            let twice = try await browser.post("/stays/reservations/2/cancel", form: [("_csrf", token)])
            #expect(twice.status == 409 && twice.contains("This reservation was cancelled already."))

            let list = try await browser.get("/stays/reservations")
            let upcoming = try #require(list.html.range(of: #"id="upcoming""#))
            let past = try #require(list.html.range(of: #"id="past""#))
            #expect(list.html[upcoming.lowerBound..<past.lowerBound].contains(#"data-reservation-id="1""#))
            #expect(list.html[past.lowerBound...].contains(#"data-reservation-id="2""#))

            app.clock.advance(by: 3 * 86_400)
            let over = try await browser.get("/stays/reservations")
            #expect(over.contains("You have no upcoming stays."))
            #expect(over.html.components(separatedBy: "data-reservation-id=").count == 3)
            let started = try await browser.get("/stays/reservations/1/cancel")
            #expect(
                started.contains("has started or is over")
                    && !started.contains(#"action="/stays/reservations/1/cancel""#))
            var stranger = WebBrowser(client: client)
            let someoneElses = try await stranger.get("/stays/reservations/1", follow: false)
            #expect(someoneElses.status == 303)
        }
    }

    // MARK: Helpers

    static func register(_ browser: inout WebBrowser, _ username: String) async throws {
        _ = try await browser.get("/stays/register")
        let made = try await browser.post(
            "/stays/register",
            form: [
                ("username", username), ("firstName", "Anna"), ("lastName", "Meier"),
                ("email", "\(username)@example.ch"), ("phone", "+41 79 123 45 67"),
                ("password", "correct horse battery"),
            ], follow: false)
        guard made.status == 303 else { throw TestFailure("register: \(made.status) \(made.html)") }
        _ = try await browser.get("/stays/sign-in")
        let signedIn = try await browser.post(
            "/stays/sign-in", form: [("login", username), ("password", "correct horse battery")], follow: false)
        guard signedIn.status == 303 else { throw TestFailure("sign-in: \(signedIn.status) \(signedIn.html)") }
    }

    /// Opens the reserve page for a Double for two and sends it; the reservation's page.
    static func reserve(_ browser: inout WebBrowser, from: String, to: String) async throws -> WebPage {
        let page = try await browser.get("/stays/reserve?room=2&checkIn=\(from)&checkOut=\(to)&guests=2")
        let key = page.firstMatch(#"name="key" value="([^"]+)""#) ?? ""
        return try await browser.post(
            "/stays/reserve",
            form: [("room", "2"), ("checkIn", from), ("checkOut", to), ("guests", "2"), ("key", key)])
    }

    /// The path and query of a URL the server made.
    static func path(_ url: String) throws -> String {
        let parsed = try #require(URLComponents(string: url))
        return parsed.path + (parsed.query.map { "?\($0)" } ?? "")
    }
}
