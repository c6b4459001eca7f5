import ConciergeModels
import ConciergeTestSupport
import Foundation
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// The events pages a buyer uses, through HTTP in process: the show list and its filters, the
/// seat map and its list fallback, holding named seats and the best available, the hold's
/// countdown, paying in the sandbox back to the booking's page, tickets with a QR code per seat,
/// cancelling, and a seat someone else took said as a sentence.
@Suite struct EventsShopPagesTests {
    @Test func theShowListFiltersAsTheAPIDoesAndSaysABadDateNextToItsField() async throws {
        let app = try await EventsTestApp.make(.sqlite)
        try await app.run { client in
            var visitor = WebBrowser(client: client)
            let all = try await visitor.get("/events")
            #expect(all.status == 200)
            #expect(all.count(#"class="card show-card""#) == 5)
            #expect(all.contains(#"href="/events/shows/shw_demo_2">Swan Lake</a>"#))
            let swan = try await visitor.get("/events?q=swan&from=&to=&venue=&maxPrice=")
            #expect(swan.count(#"class="card show-card""#) == 1 && swan.contains("Swan Lake"))
            // A browser's GET form sends a space as `+`.
            let twoWords = try await visitor.get("/events?q=swan+lake")
            #expect(twoWords.count(#"class="card show-card""#) == 1 && twoWords.contains(#"value="swan lake""#))
            let api = try await client.send(.get, "/events/api/shows?maxPrice=30").decode([Events.Show].self)
            let cheap = try await visitor.get("/events?maxPrice=30")
            #expect(cheap.count(#"class="card show-card""#) == api.count)
            let bad = try await visitor.get("/events?from=2026-13-01")
            #expect(bad.status == 400)
            #expect(bad.contains(#"id="from" name="from" type="date" value="2026-13-01" aria-invalid="true""#))
            #expect(bad.contains(#"id="from-error" role="alert">The query parameter &#39;from&#39; is a date"#))
            let german = try await visitor.get("/events?lang=de")
            #expect(german.contains("<h1>Vorstellungen</h1>"))
            let show = try await visitor.get("/events/shows/shw_demo_1")
            #expect(show.contains(#"aria-label="Reihe A, Platz 1, Stalls, CHF 120.00, frei""#))
        }
    }

    @Test func theSeatMapLabelsEverySeatAndTheListOffersTheFreeOnes() async throws {
        let app = try await EventsTestApp.make(.sqlite)
        try await app.runWithWorker { client, worker in
            var visitor = WebBrowser(client: client)
            let page = try await visitor.get("/events/shows/shw_demo_1")
            #expect(page.count("<circle class=\"seat ") == 336)
            #expect(page.count(#"<input type="checkbox" name="seat""#) == 336)
            #expect(page.contains(#"data-seat-id="stalls-A1""#))
            #expect(page.contains(#"aria-label="Row A, seat 1, Stalls, CHF 120.00, available""#))
            #expect(page.contains(#"<script src="/assets/events-seatmap.js" defer></script>"#))
            #expect(page.contains(#"<details class="seat-list" id="seat-list" open>"#))
            let ben = try await client.eventsBuyer("ben@example.ch", worker: worker)
            #expect(try await client.seatCheckout(ben, seats: ["stalls-A1"]).status == .ok)
            let after = try await visitor.get("/events/shows/shw_demo_1")
            #expect(after.count(#"<input type="checkbox" name="seat""#) == 335)
            #expect(after.contains(#"aria-label="Row A, seat 1, Stalls, CHF 120.00, held""#))
            #expect(!after.contains(#"value="stalls-A1""#))
        }
    }

    @Test func twoNamedSeatsAreHeldWithTheHoldsDeadlineAndBestAvailablePicksForTheBuyer() async throws {
        let app = try await EventsTestApp.make(.sqlite)
        try await app.runWithWorker { client, worker in
            let token = try await client.eventsBuyer("anna@example.ch", worker: worker)
            var anna = WebBrowser.signedIn(client: client, token: token)
            _ = try await anna.get("/events/shows/shw_demo_1")
            let held = try await anna.post(
                "/events/shows/shw_demo_1/hold",
                form: [("mode", "seats"), ("seat", "stalls-A9"), ("seat", "stalls-A10")],
                follow: false)
            #expect(held.status == 303 && held.location?.hasPrefix("/events/orders/ord_") == true)
            #expect(anna.cookies["concierge_events_checkouts"]?.hasPrefix("evs_") == true)
            let order = try await anna.get(held.location ?? "")
            #expect(order.contains("<h1>Your seats are held</h1>"))
            #expect(order.contains("Row A, seat 9, Stalls · CHF 120.00</li><li>Row A, seat 10, Stalls"))
            #expect(order.contains(#"<strong class="total">CHF 240.00</strong>"#))
            let deadline = Int((app.clock.now.timeIntervalSince1970 + 15 * 60) * 1000)
            #expect(order.contains(#"data-countdown-until="\#(deadline)""#))
            #expect(order.contains(">15:00</span>"))
            #expect(
                order.firstMatch(#"class="button primary pay" href="([^"]+)""#)?.contains("/sandbox/checkout/") == true)
            let seats = try await client.eventSeats(token: token)
            #expect(seats["stalls-A9"]?.heldByYou == true && seats["stalls-A10"]?.heldByYou == true)

            _ = try await anna.get("/events/shows/shw_demo_1")
            let best = try await anna.post(
                "/events/shows/shw_demo_1/hold", form: [("mode", "best"), ("quantity", "3"), ("section", "gallery")])
            #expect(best.status == 200 && best.contains("<h1>Your seats are held</h1>"))
            #expect(best.count(", Gallery · CHF 40.00</li>") == 3)
            #expect(best.contains(#"<strong class="total">CHF 120.00</strong>"#))
        }
    }

    @Test func payingInTheSandboxComesBackToTheBookingsPageWithItsTickets() async throws {
        let app = try await EventsTestApp.make(.sqlite)
        try await app.runWithWorker { client, worker in
            let token = try await client.eventsBuyer("anna@example.ch", worker: worker)
            var anna = WebBrowser.signedIn(client: client, token: token)
            _ = try await anna.get("/events/shows/shw_demo_1")
            let order = try await anna.post(
                "/events/shows/shw_demo_1/hold",
                form: [("mode", "seats"), ("seat", "circle-M3"), ("seat", "circle-M4")])
            let pay = try #require(order.firstMatch(#"class="button primary pay" href="([^"]+)""#))
            let paid = try await client.checkout(pay, outcome: "paid")
            let returnURL = try #require(paid.headers[.location])
            // The app's return (no web mark) still answers the API's JSON.
            let json = try await client.send(.get, WebBrowser.pathOnly(returnURL))
            #expect(try json.decode(Events.CheckoutSuccessResponse.self).status == .confirmed)
            let booking = try await anna.get(returnURL)
            #expect(booking.status == 200)
            #expect(booking.contains("<h1>Your tickets</h1>"))
            #expect(booking.count(#"<img class="qr" src="/events/tickets/ord_"#) == 2)
            #expect(booking.contains(#"alt="QR code of the ticket for Row M, seat 3, Circle""#))
        }
    }

    @Test func theTicketsPageHasAQRCodePerSeatForItsOwnerAndCancelsWithARefund() async throws {
        let app = try await EventsTestApp.make(.sqlite)
        try await app.runWithWorker { client, worker in
            let token = try await client.eventsBuyer("anna@example.ch", worker: worker)
            var anna = WebBrowser.signedIn(client: client, token: token)
            _ = try await anna.get("/events/shows/shw_demo_3")
            let order = try await anna.post(
                "/events/shows/shw_demo_3/hold",
                form: [("mode", "seats"), ("seat", "stalls-B3"), ("seat", "stalls-B4")])
            let pay = try #require(order.firstMatch(#"class="button primary pay" href="([^"]+)""#))
            _ = try await client.checkout(pay, outcome: "paid")
            let tickets = try await anna.get("/events/tickets")
            #expect(tickets.contains("<h1>My tickets</h1>"))
            let images = tickets.allMatches(#"<img class="qr" src="([^"]+)""#)
            #expect(images.count == 2)
            let image = try await anna.get(images[0])
            #expect(image.status == 200 && image.headers[.contentType]?.hasPrefix("image/svg+xml") == true)
            #expect(image.html.hasPrefix("<svg") || image.html.contains("<svg"))
            let benToken = try await client.eventsBuyer("ben@example.ch", worker: worker)
            var ben = WebBrowser.signedIn(client: client, token: benToken)
            #expect(try await ben.get(images[0]).status == 404)
            var stranger = WebBrowser(client: client)
            let signedOut = try await stranger.get("/events/tickets", follow: false)
            #expect(signedOut.status == 303 && signedOut.location == "/account/sign-in?next=%2Fevents%2Ftickets")

            let orderID = try #require(tickets.firstMatch(#"action="/events/orders/(ord_[0-9a-f]+)/cancel""#))
            let cancelled = try await anna.post("/events/orders/\(orderID)/cancel", form: [("next", "/events/tickets")])
            #expect(cancelled.status == 200)
            #expect(cancelled.contains("The booking is cancelled."))
            #expect(cancelled.contains("<td>cancelled</td>"))
            #expect(try await client.eventSeats("shw_demo_3")["stalls-B3"]?.status == .available)
            #expect(try await anna.get(images[0]).status == 409)
        }
    }

    @Test func aSeatSomeoneElseTookIsSaidAsASentenceAndNothingIsHeld() async throws {
        let app = try await EventsTestApp.make(.sqlite)
        try await app.runWithWorker { client, worker in
            let ben = try await client.eventsBuyer("ben@example.ch", worker: worker)
            let token = try await client.eventsBuyer("anna@example.ch", worker: worker)
            var anna = WebBrowser.signedIn(client: client, token: token)
            _ = try await anna.get("/events/shows/shw_demo_1")
            #expect(try await client.seatCheckout(ben, seats: ["stalls-C5"]).status == .ok)
            let clash = try await anna.post(
                "/events/shows/shw_demo_1/hold",
                form: [("mode", "seats"), ("seat", "stalls-C4"), ("seat", "stalls-C5")])
            #expect(clash.status == 409)
            #expect(
                clash.contains(
                    #"<div class="errors" id="seats-error" role="alert"><p>Someone else has just taken Stalls row C seat 5. Nothing was held; please choose other seats.</p>"#
                ))
            #expect(
                clash.contains(
                    #"value="stalls-C4" data-seat-id="stalls-C4" aria-label="Row C, seat 4, Stalls, CHF 120.00" checked>"#
                ))
            #expect(try await client.eventBookings(token).isEmpty)
            let none = try await anna.post("/events/shows/shw_demo_1/hold", form: [("mode", "seats")])
            #expect(none.status == 400 && none.contains("Choose at least one seat from the map or the list."))
            let tooMany = try await anna.post(
                "/events/shows/shw_demo_1/hold", form: [("mode", "best"), ("quantity", "11")])
            #expect(
                tooMany.status == 400 && tooMany.contains(#"id="best-error" role="alert">An order has 1 to 10 seats"#))
        }
    }

    @Test func buyingNeedsASignedInBuyerWithAConfirmedEmail() async throws {
        let app = try await EventsTestApp.make(.sqlite)
        try await app.runWithWorker { client, worker in
            var stranger = WebBrowser(client: client)
            _ = try await stranger.get("/events/shows/shw_demo_1")
            let away = try await stranger.post(
                "/events/shows/shw_demo_1/hold", form: [("mode", "seats"), ("seat", "stalls-A1")], follow: false)
            #expect(away.location == "/account/sign-in?next=%2Fevents%2Fshows%2Fshw_demo_1")
            let token = try await client.eventsBuyer("cleo@example.ch", worker: worker, verified: false)
            var cleo = WebBrowser.signedIn(client: client, token: token)
            _ = try await cleo.get("/events/shows/shw_demo_1")
            let refused = try await cleo.post(
                "/events/shows/shw_demo_1/hold", form: [("mode", "seats"), ("seat", "stalls-A1")])
            #expect(refused.status == 403)
            #expect(refused.contains("Please confirm your email address first"))
            #expect(refused.contains(#"href="/events/verify-email""#))
        }
    }
}
