import ConciergeTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// What the accessibility review of 2026-11-27 found that axe could not judge, checked in the
/// markup through HTTP in process (the browser suite checks the same pages rendered): the seat
/// map's state shapes and section outlines, the hold countdown's timer and its announcements,
/// the language switch on a refused form, and the sandbox checkout's landmark and language.
@Suite struct AccessibilityPagesTests {
    /// Review issue 5: a refused sign-in is shown at the form's target, a POST-only path; the
    /// switcher must lead to the sign-in page in German, not to a JSON 405.
    @Test func theLanguageSwitchOnARefusedSignInLeadsToTheSignInPageInGerman() async throws {
        let app = try await TestApp.make(engine: .sqlite, environment: AccountHTTP.environment)
        try await app.run { client in
            var browser = WebBrowser(client: client)
            // The account's own paths answer a page to a browser that asks for HTML, the API otherwise.
            let html: HTTPFields = [.accept: "text/html"]
            _ = try await browser.get("/account/sign-in", headers: html)
            let refused = try await browser.post(
                "/account/web/sign-in", form: [("login", "nobody@example.ch"), ("password", "wrong password 123")])
            #expect(refused.status == 401 || refused.status == 400, "\(refused.status): \(refused.html.prefix(3000))")
            let german = try #require(refused.firstMatch(#"<a href="([^"]+)" hreflang="de""#))
            #expect(german == "/account/sign-in?lang=de")
            let page = try await browser.get(german, headers: html)
            #expect(page.status == 200)
            #expect(page.contains(#"<html lang="de">"#) && page.contains("<h1>Anmelden</h1>"))
        }
    }

    /// The same for a vertical's form whose target is not its page: rides' SMS sign-in.
    @Test func theLanguageSwitchOnARefusedRidesSignInLeadsToTheRidesPage() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            var browser = WebBrowser(client: client)
            _ = try await browser.get("/rides")
            let refused = try await browser.post(
                "/rides/sign-in", form: [("phone", "not a phone"), ("next", "/rides")])
            #expect(refused.status == 400)
            #expect(refused.firstMatch(#"<a href="([^"]+)" hreflang="de""#) == "/rides?lang=de")
            // A page reached by a link keeps its own address and query.
            let shows = try await browser.get("/events?q=jazz")
            #expect(shows.firstMatch(#"<a href="([^"]+)" hreflang="de""#) == "/events?q=jazz&amp;lang=de")
        }
    }

    /// Review issue 1: free seats were filled with their section's colour. Every state now has
    /// one look (free solid, chosen a check, held a dashed ring, sold a cross), and each section
    /// is a named outline.
    @Test func theSeatMapDrawsStatesByShapeAndSectionsAsNamedOutlines() async throws {
        let app = try await EventsTestApp.make(.sqlite)
        try await app.runWithWorker { client, worker in
            let ben = try await client.eventsBuyer("ben@example.ch", worker: worker)
            #expect(try await client.seatCheckout(ben, seats: ["stalls-A1"]).status == .ok)
            var visitor = WebBrowser(client: client)
            let page = try await visitor.get("/events/shows/shw_demo_1")
            for sectionColour in ["#c0392b", "#2980b9", "#27ae60"] { #expect(!page.contains(sectionColour)) }
            #expect(page.contains(#"<pattern id="seat-chosen""#) && page.contains(#"<pattern id="seat-sold""#))
            #expect(page.contains(#"<circle class="seat reserved" data-seat-id="stalls-A1""#))
            #expect(page.count(#"<rect class="section-outline""#) == 3)
            #expect(
                page.contains(#"<text class="section-label" x="90" y="122" aria-hidden="true">Stalls · CHF 120.00"#))
            // The key shows the same shapes as the map, and how sections are drawn.
            for state in ["available", "selected", "reserved", "sold"] {
                #expect(page.contains(#"<circle class="key-seat seat \#(state)""#))
            }
            #expect(page.contains(#"<span class="section-key"></span>section (outlined and named on the map)"#))
        }
    }

    /// Review issue 2: the countdown sat in a role=status paragraph rewritten every second.
    @Test func aHoldsCountdownIsATimerWithItsAnnouncementsInASeparateLiveRegion() async throws {
        let app = try await EventsTestApp.make(.sqlite)
        try await app.runWithWorker { client, worker in
            let token = try await client.eventsBuyer("anna@example.ch", worker: worker)
            var anna = WebBrowser.signedIn(client: client, token: token, language: "de")
            _ = try await anna.get("/events/shows/shw_demo_1")
            let order = try await anna.post(
                "/events/shows/shw_demo_1/hold", form: [("mode", "seats"), ("seat", "circle-M3")])
            #expect(order.status == 200)
            #expect(!order.contains(#"<p class="hold" role="status">"#))
            #expect(order.contains(#"<span class="countdown" role="timer" data-countdown-until=""#))
            #expect(order.contains(#"data-announce-300="Noch 5 Minuten zum Bezahlen"#))
            #expect(order.contains(#"data-announce-60="Noch 1 Minute zum Bezahlen.""#))
            #expect(order.contains(#"data-announce-0="Die Reservierung ist abgelaufen"#))
            let region = try #require(order.firstMatch(#"data-announcer="([^"]+)""#))
            #expect(
                order.contains(#"<p class="visually-hidden" id="\#(region)" role="status" aria-live="polite"></p>"#))
            // What the page says when the hold lapses while it is open, with the way back.
            #expect(order.contains(#"<div class="errors hold-lapsed" data-hold-lapsed hidden>"#))
            #expect(order.contains(#"<a href="/events/shows/shw_demo_1">Plätze erneut reservieren</a>"#))
        }
    }

    /// Review: the sandbox checkout had no main landmark and spoke only English.
    @Test func theSandboxCheckoutHasAMainLandmarkAndSpeaksGerman() async throws {
        let app = try await EventsTestApp.make(.sqlite)
        try await app.runWithWorker { client, worker in
            let token = try await client.eventsBuyer("anna@example.ch", worker: worker)
            var anna = WebBrowser.signedIn(client: client, token: token, language: "de")
            _ = try await anna.get("/events/shows/shw_demo_1")
            let order = try await anna.post(
                "/events/shows/shw_demo_1/hold", form: [("mode", "seats"), ("seat", "circle-M5")])
            let pay = try #require(order.firstMatch(#"class="button primary pay" href="([^"]+)""#))
            let checkout = try await anna.get(WebBrowser.pathOnly(pay))
            #expect(checkout.status == 200)
            #expect(checkout.contains(#"<html lang="de">"#) && checkout.contains("<main>"))
            #expect(checkout.contains("<h1>Sandbox-Kasse</h1>") && checkout.contains("bezahlen</button>"))
            let english = try await anna.get(WebBrowser.pathOnly(pay) + "?lang=en")
            #expect(english.contains(#"<html lang="en">"#) && english.contains("<h1>Sandbox checkout</h1>"))
        }
    }
}
