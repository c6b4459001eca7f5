import ConciergeCore
import ConciergeModels
import ConciergeTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

@testable import ConciergeServer

/// The commute pages through HTTP in process: signing in first, adding a trip by searching its
/// places and reading its leave time with the reasons, corrections next to their fields,
/// editing, deleting, and the German words. The test clock starts on Friday 2027-01-15 at 09:00
/// Zurich time; the planner runs on the route estimator with unknown weather.
@Suite struct CommutePagesTests {
    static let zurich = "gz_geo_2657896"
    static let winterthur = "gz_geo_2657970"

    /// Every field of the trip form, as a person fills it in; `changes` replaces or removes some.
    static func tripForm(_ changes: [String: String?] = [:]) -> [(String, String)] {
        var fields: [(String, String)] = [
            ("name", "Office"), ("origin_query", "Zürich"), ("origin", zurich), ("destination_query", "Winterthur"),
            ("destination", winterthur), ("arrival_time", "10:00"), ("time_zone", "Europe/Zurich"),
            ("buffer_minutes", "5"), ("on_time_target", "90"), ("notify_enabled", "on"), ("lead_minutes", "10"),
            ("channels", "push"),
        ]
        for day in ["mon", "tue", "wed", "thu", "fri"] { fields.append(("days", day)) }
        for (name, value) in changes {
            fields.removeAll { $0.0 == name }
            if let value { fields.append((name, value)) }
        }
        return fields
    }

    @Test func aSignedOutVisitorIsAskedToSignInFirst() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            var browser = WebBrowser(client: client)
            let welcome = try await browser.get("/commute")
            #expect(welcome.status == 200)
            #expect(welcome.contains(#"href="/account/sign-in?next=%2Fcommute""#))
            for path in ["/commute/my-trips/new", "/commute/my-trips/trp_x/edit", "/commute/my-trips/trp_x/delete"] {
                let page = try await browser.get(path, follow: false)
                #expect(page.status == 303, "\(path)")
                #expect(page.location?.hasPrefix("/account/sign-in?next=%2Fcommute%2Fmy-trips%2F") == true, "\(path)")
            }
            // The API under the same prefix still answers with its JSON error.
            let api = try await client.send(.get, "/commute/trips")
            #expect(api.status == .unauthorized && api.errorBody?.code != nil)
        }
    }

    @Test func addingATripByItsPlacesShowsItsNextLeaveTimeWithTheReasons() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            let token = try await client.commutePagesAccount()
            var browser = WebBrowser.signedIn(client: client, token: token)
            let empty = try await browser.get("/commute")
            #expect(empty.contains("You have no trips yet"))
            let form = try await browser.get("/commute/my-trips/new")
            #expect(form.status == 200 && form.contains(#"<label for="origin-query">"#))

            // "Find places" lists what the words find as radio choices, keeping the input.
            let found = try await browser.post(
                "/commute/my-trips/new",
                form: [("name", "Office"), ("origin_query", "Zürich"), ("arrival_time", "10:00"), ("find", "origin")])
            #expect(found.status == 200)
            #expect(found.contains(#"name="origin" value="\#(Self.zurich)""#))
            #expect(found.contains(#"value="Office""#) && found.contains(#"value="10:00""#))

            let saved = try await browser.post("/commute/my-trips/new", form: Self.tripForm(), follow: false)
            #expect(saved.status == 303 && saved.location == "/commute?notice=added")
            let list = try await browser.get(saved.location ?? "/commute")
            #expect(list.contains("Your trip is saved") && list.contains("<h2>Office</h2>"))
            #expect(list.contains("Zürich → Winterthur") && list.contains("Arrive by 10:00 on Mon, Tue, Wed, Thu, Fri"))

            // The leave time is the API's recommendation, in the trip's zone.
            let trip = try await client.send(.get, "/commute/trips", token: token).decode(CommuteTripList.self).trips[0]
            let recommendation = try await client.send(
                .get, "/commute/trips/\(trip.id)/recommendation", token: token
            ).decode(LeaveTimeRecommendation.self)
            let leaveAt = try #require(WireDate.date(from: recommendation.leaveAt))
            let shown = try #require(list.firstMatch(#"class="commute-leave-time"[^>]*>(\d\d:\d\d)</time>"#))
            #expect(shown == WebFormat.time(leaveAt, zone: WebFormat.zurich, .en))
            #expect(list.contains("to arrive by 10:00"))
            for reason in [
                "The drive takes about \(recommendation.travelMinutes) min", "traffic at that time of day adds about",
                "the usual traffic at that time of day", "The weather is unknown", "Your own pace changes nothing yet",
                "Your buffer adds 5 min.", "Chance of arriving on time:",
            ] {
                #expect(list.contains(reason), "\(reason)")
            }
        }
    }

    @Test func aBadTimeOrNoDayIsSaidNextToItsFieldKeepingTheInput() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            let token = try await client.commutePagesAccount()
            var browser = WebBrowser.signedIn(client: client, token: token)
            _ = try await browser.get("/commute/my-trips/new")
            let badTime = try await browser.post(
                "/commute/my-trips/new", form: Self.tripForm(["arrival_time": "25:00"]))
            #expect(badTime.status == 400)
            #expect(badTime.contains(#"id="arrival_time-error" role="alert">Enter a time of day as HH:MM"#))
            #expect(badTime.contains(#"value="25:00""#) && badTime.contains(#"aria-invalid="true""#))
            #expect(badTime.contains(#"value="Office""#) && badTime.contains(#"value="\#(Self.zurich)" checked"#))

            let noDays = try await browser.post(
                "/commute/my-trips/new", form: Self.tripForm().filter { $0.0 != "days" })
            #expect(noDays.status == 400 && noDays.contains(#"id="days-error" role="alert">Choose at least one day."#))

            let noPlace = try await browser.post(
                "/commute/my-trips/new", form: Self.tripForm(["destination": nil, "destination_query": ""]))
            #expect(noPlace.contains(#"id="destination-error" role="alert">Search for a place and choose it."#))

            let samePlace = try await browser.post(
                "/commute/my-trips/new", form: Self.tripForm(["destination": Self.zurich]))
            #expect(samePlace.contains(#"id="destination-error" role="alert">The destination is the same place"#))

            let badBuffer = try await browser.post(
                "/commute/my-trips/new", form: Self.tripForm(["buffer_minutes": "90"]))
            #expect(badBuffer.contains(#"id="buffer_minutes-error" role="alert">Enter a whole number of minutes"#))
            #expect(
                try await client.send(.get, "/commute/trips", token: token).decode(CommuteTripList.self).trips.isEmpty)
        }
    }

    @Test func editingATripChangesItAndKeepsItsPlaces() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            let token = try await client.commutePagesAccount()
            let trip = try await client.createTrip(token: token)
            var browser = WebBrowser.signedIn(client: client, token: token)
            let form = try await browser.get("/commute/my-trips/\(trip.id)/edit")
            #expect(form.status == 200 && form.contains(#"value="Office""#))
            #expect(form.contains(#"id="origin-keep" name="origin" value="keep" checked"#))
            let edited = try await browser.post(
                "/commute/my-trips/\(trip.id)/edit",
                form: Self.tripForm([
                    "name": "Office late", "origin": "keep", "origin_query": "", "destination": "keep",
                    "destination_query": "", "arrival_time": "10:30",
                ]))
            #expect(edited.contains("Your changes are saved") && edited.contains("<h2>Office late</h2>"))
            #expect(edited.contains("Arrive by 10:30"))
            let stored = try await client.send(.get, "/commute/trips/\(trip.id)", token: token).decode(CommuteTrip.self)
            #expect(stored.name == "Office late" && stored.arrivalTime == "10:30")
            #expect(stored.origin == trip.origin && stored.destination == trip.destination)

            // Another person's trip is not there for them.
            let other = try await client.commutePagesAccount(email: "other@example.com")
            var stranger = WebBrowser.signedIn(client: client, token: other)
            let refused = try await stranger.get("/commute/my-trips/\(trip.id)/edit")
            #expect(refused.status == 404 && refused.contains("<h1>"))
        }
    }

    @Test func deletingATripAsksFirst() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            let token = try await client.commutePagesAccount()
            let trip = try await client.createTrip(token: token)
            var browser = WebBrowser.signedIn(client: client, token: token)
            let confirm = try await browser.get("/commute/my-trips/\(trip.id)/delete")
            #expect(confirm.status == 200 && confirm.contains("Delete this trip?") && confirm.contains("Office"))
            #expect(
                try await client.send(.get, "/commute/trips", token: token).decode(CommuteTripList.self).trips.count
                    == 1)
            let deleted = try await browser.post("/commute/my-trips/\(trip.id)/delete", form: [])
            #expect(deleted.contains("The trip is deleted.") && deleted.contains("You have no trips yet"))
            #expect(
                try await client.send(.get, "/commute/trips", token: token).decode(CommuteTripList.self).trips.isEmpty)
        }
    }

    @Test func theFormsScriptGetsThePlaceChoicesOfOneEnd() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            var browser = WebBrowser.signedIn(client: client, token: try await client.commutePagesAccount())
            let choices = try await browser.get("/commute/my-trips/places?end=destination&q=Winterthur")
            #expect(choices.status == 200 && !choices.contains("<html"))
            #expect(choices.contains(#"name="destination" value="\#(Self.winterthur)""#))
            let coordinates = try await browser.get("/commute/my-trips/places?end=origin&q=47.3779%2C%208.5403")
            #expect(coordinates.contains(#"name="origin" value="geo:47.3779,8.5403""#))
            let nothing = try await browser.get("/commute/my-trips/places?end=origin&q=Qqqqxz")
            #expect(nothing.contains("No place matches"))
        }
    }

    @Test func inGermanWithAHolidaySkipped() async throws {
        // Thursday 24 December 2026, noon in Zurich: Christmas Day (Friday) is skipped.
        let clock = ManualTimeSource(Date(timeIntervalSince1970: 1_798_110_000))
        let app = try await TestApp.make(engine: .sqlite, clock: clock)
        try await app.run { client in
            let token = try await client.commutePagesAccount()
            _ = try await client.createTrip(token: token)
            var browser = WebBrowser.signedIn(client: client, token: token, language: "de")
            let list = try await browser.get("/commute")
            #expect(list.contains(#"<html lang="de">"#) && list.contains("Losfahren um"))
            #expect(list.contains("Die Fahrt dauert etwa") && list.contains("Chance, pünktlich anzukommen"))
            #expect(list.contains("Feiertag (Weihnachten)") && list.contains("Stephanstag") == false)
            // The next occurrence is Monday 28 December, after Christmas and the weekend.
            #expect(list.contains("28. Dez. 2026 · Ankunft bis 10:00"))
            let form = try await browser.get("/commute/my-trips/new")
            #expect(form.contains("Fahrt hinzufügen") && form.contains("Ort suchen") && form.contains("Montag"))
        }
    }
}

extension TestClientProtocol {
    /// A new account through `POST /account/sign-up` (202, "check your mail") and the sign-in
    /// after it; its access token opens the page session.
    func commutePagesAccount(email: String = "commuter@example.com") async throws -> String {
        let accepted = try await send(
            .post, "/account/sign-up",
            json: #"{"email": "\#(email)", "password": "correct horse battery staple", "name": "Commuter"}"#)
        guard accepted.status == .accepted else { throw TestFailure("sign-up: \(accepted.status)") }
        let response = try await send(
            .post, "/account/sign-in", json: #"{"login": "\#(email)", "password": "correct horse battery staple"}"#)
        guard response.status == .ok,
            let body = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any],
            let token = body["accessToken"] as? String
        else { throw TestFailure("sign-up: \(response.status) \(String(buffer: response.body))") }
        return token
    }
}
