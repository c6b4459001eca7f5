import ConciergeTestSupport
import Foundation
import HTTPTypes
import Testing

@testable import ConciergeServer

/// The stays sign-in page offers every method the platform has, as `/account/sign-in` does: the
/// password, "Continue with Apple/Google" (the dev identity provider's page in dev mode) and a
/// code by SMS. Each goes through the platform's pages and comes back to the stays page asked for.
@Suite struct StaysSignInMethodsPagesTests {
    static let next = "/stays/reservations"

    @Test func theSignInPageOffersTheProvidersAndAPhoneCodeInEnglishAndGerman() async throws {
        let app = try await TestApp.make(engine: .sqlite, environment: StaysFixtures.environment)
        try await app.run { client in
            var browser = WebBrowser(client: client)
            let page = try await browser.get("/stays/sign-in?next=%2Fstays%2Freservations")
            #expect(page.status == 200 && page.contains(#"action="/stays/sign-in""#))
            for provider in ["apple", "google"] {
                #expect(
                    page.contains(
                        #"<a class="button account-\#(provider)" href="/account/social/dev?provider=\#(provider)&amp;intent=sign-in&amp;next=%2Fstays%2Freservations">"#
                    ), "\(provider)")
            }
            #expect(page.contains("Continue with Apple") && page.contains("Continue with Google"))
            #expect(page.contains(#"<form method="post" action="/rides/sign-in""#))
            #expect(page.contains(#"<input type="hidden" name="next" value="/stays/reservations">"#))
            #expect(page.contains("Or with your mobile phone") && page.contains(#"id="phone" name="phone" type="tel""#))
            #expect(page.contains("/assets/account.css"))

            // Without next= the other methods come back to the guest's reservations too.
            let plain = try await browser.get("/stays/sign-in")
            #expect(plain.contains("intent=sign-in&amp;next=%2Fstays%2Freservations"))
            let german = try await browser.get("/stays/sign-in", headers: [.acceptLanguage: "de-CH"])
            #expect(german.contains("Weiter mit Google"))
            #expect(german.contains("Oder mit dem Mobiltelefon") && german.contains("Code senden"))
        }
    }

    @Test func aGuestSignsInWithGoogleOnTheStaysPageAndComesBackToTheReservations() async throws {
        let app = try await TestApp.make(engine: .sqlite, environment: StaysFixtures.environment)
        try await app.run { client in
            var browser = WebBrowser(client: client)
            let signIn = try await browser.navigate("/stays/sign-in?next=%2Fstays%2Freservations")
            let href = try #require(signIn.firstMatch(#"href="(/account/social/dev\?provider=google[^"]*)""#))
            let provider = try await browser.navigate(href.replacingOccurrences(of: "&amp;", with: "&"))
            #expect(provider.contains(#"name="next" value="/stays/reservations""#))
            let back = try await browser.post(
                "/account/web/social/dev",
                form: [
                    ("provider", "google"), ("intent", "sign-in"), ("email", "gina@example.ch"), ("verified", "true"),
                    ("next", Self.next),
                ], follow: false)
            #expect(back.status == 303 && back.location == Self.next)
            let list = try await browser.get(Self.next)
            #expect(list.status == 200 && list.contains("You have no upcoming stays."))
        }
    }

    @Test func aGuestSignsInWithATextedCodeFromTheStaysPageAndComesBackToTheReservations() async throws {
        let app = try await TestApp.make(engine: .sqlite, environment: StaysFixtures.environment)
        try await app.run { client in
            var browser = WebBrowser(client: client)
            _ = try await browser.get("/stays/sign-in?next=%2Fstays%2Freservations")
            let codePage = try await browser.post(
                "/rides/sign-in", form: [("phone", "+41 79 555 01 02"), ("next", Self.next)])
            #expect(codePage.status == 200 && codePage.contains("We sent a code to +41795550102"))
            let back = try await browser.post(
                "/rides/sign-in/code", form: [("code", try await client.latestCode()), ("next", Self.next)],
                follow: false)
            #expect(back.status == 303 && back.location == Self.next)
            let list = try await browser.get(Self.next)
            #expect(list.status == 200 && list.contains("You have no upcoming stays."))
        }
    }
}
