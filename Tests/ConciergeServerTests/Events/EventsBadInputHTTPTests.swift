import ConciergeModels
import ConciergeTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import ConciergeServer

/// Bad input gets a 4xx with the seed's error body, never a 5xx, and holds nothing.
@Suite struct EventsBadInputHTTPTests {
    @Test(arguments: TestEngine.all)
    func badCheckoutsAreRefusedAndHoldNothing(engine: TestEngine) async throws {
        let app = try await EventsTestApp.make(engine)
        try await app.runWithWorker { client, worker in
            let anna = try await client.eventsBuyer("anna@example.ch", worker: worker)
            let elevenSeats = (1...11).map { "\"stalls-A\($0)\"" }.joined(separator: ", ")
            let cases: [(String, HTTPResponse.Status, String)] = [
                (#"{"showId": "shw_nope", "specificSeatIds": ["stalls-A1"]}"#, .notFound, "show_not_found"),
                (#"{"showId": "shw_demo_1", "specificSeatIds": []}"#, .badRequest, "invalid_seats"),
                (#"{"showId": "shw_demo_1", "specificSeatIds": [\#(elevenSeats)]}"#, .badRequest, "invalid_seats"),
                (
                    #"{"showId": "shw_demo_1", "specificSeatIds": ["stalls-A1", "stalls-A1"]}"#, .badRequest,
                    "invalid_seats"
                ),
                (
                    #"{"showId": "shw_demo_1", "specificSeatIds": ["stalls-A1", "nowhere-Z9"]}"#, .badRequest,
                    "invalid_seats"
                ),
                (
                    #"{"showId": "shw_demo_1", "specificSeatIds": ["stalls-A1"], "quantity": 1}"#, .badRequest,
                    "invalid_request"
                ),
                (#"{"showId": "shw_demo_1", "quantity": 0}"#, .badRequest, "invalid_seats"),
                (#"{"showId": "shw_demo_1", "quantity": 2, "section": "roof"}"#, .badRequest, "invalid_seats"),
                (#"{"showId": "shw_demo_1", "specificSeatIds": "stalls-A1"}"#, .badRequest, "invalid_request"),
                (#"{"showId": "#, .badRequest, "invalid_request"),
                (
                    #"{"showId": "\#(String(repeating: "x", count: 5_000))", "quantity": 1}"#, .badRequest,
                    "invalid_request"
                ),
            ]
            for (json, status, code) in cases {
                let response = try await client.send(.post, "/events/api/seat-checkout", json: json, token: anna)
                #expect(response.status == status, "\(json.prefix(80))")
                #expect(response.errorBody?.code == code, "\(json.prefix(80))")
            }
            let huge = try await client.send(
                .post, "/events/api/seat-checkout",
                json: #"{"showId": "\#(String(repeating: "x", count: 70_000))"}"#, token: anna)
            #expect(huge.status == .contentTooLarge)
            // A rides-shaped (opaque) token is not an events token.
            let rides = try await client.signIn().sessionToken
            let foreign = try await client.seatCheckout(rides, seats: ["stalls-A1"])
            #expect(foreign.status == .unauthorized && foreign.errorBody?.code == "session_expired")
            #expect(try await client.eventSeats().values.allSatisfy { $0.status == .available })
            #expect(try await client.eventBookings(anna).isEmpty)
        }
    }

    @Test func badQueriesAndUnknownShowsAre4xx() async throws {
        let app = try await EventsTestApp.make(.sqlite)
        try await app.run { client in
            for path in [
                "/events/api/shows?from=2026-13-01", "/events/api/shows?to=", "/events/api/shows?from=2027-02-29",
                "/events/api/shows?limit=0", "/events/api/shows?maxPrice=-1",
                "/events/api/shows?includePast=yes", "/events/api/shows?cursor=abc", "/events/api/checkout/success",
            ] {
                let response = try await client.send(.get, path)
                #expect(response.status == .badRequest, "\(path)")
                #expect(response.errorBody?.success == false, "\(path)")
            }
            #expect(try await client.send(.get, "/events/api/shows/nope/seats").status == .notFound)
            #expect(try await client.send(.get, "/events/api/shows/nope/seatmap").status == .notFound)
            #expect(try await client.send(.get, "/events/api/checkout/success?session_id=evs_x").status == .notFound)
            #expect(try await client.send(.get, "/events/api/user/bookings").status == .unauthorized)
            let search = try await client.send(.get, "/events/api/shows?q=zuri&maxPrice=45")
                .decode([Events.Show].self)
            #expect(search.count == 5)
            let page = try await client.send(.get, "/events/api/shows?q=jazz").decode([Events.Show].self)
            #expect(page.map(\.title) == ["Jazz Night: Trio Zürisee"])
            let accents = try await client.send(.get, "/events/api/shows?q=ZURISEE").decode([Events.Show].self)
            #expect(accents.count == 1)
        }
    }

    @Test func signUpAndSignInMistakesAreOneLineErrors() async throws {
        let app = try await EventsTestApp.make(.sqlite)
        try await app.run { client in
            let weak = try await client.send(
                .post, "/events/api/auth/signup", json: #"{"email": "a@example.ch", "password": "short", "name": "A"}"#)
            #expect(weak.status == .badRequest)
            let first = try await client.send(
                .post, "/events/api/auth/signup",
                json: #"{"email": "a@example.ch", "password": "a long passphrase", "name": "A"}"#)
            #expect(first.status == .created)
            let again = try await client.send(
                .post, "/events/api/auth/signup",
                json: #"{"email": "a@example.ch", "password": "a long passphrase", "name": "A"}"#)
            // A taken address is answered like a new one (EventsSignUpEnumerationHTTPTests).
            #expect(again.status == .created && again.body == first.body)
            let wrong = try await client.send(
                .post, "/events/api/auth/signin", json: #"{"email": "a@example.ch", "password": "not the password"}"#)
            #expect(wrong.status == .unauthorized && wrong.errorBody?.code == "invalid_credentials")
            let signedIn = try await client.send(
                .post, "/events/api/auth/signin", json: #"{"email": "a@example.ch", "password": "a long passphrase"}"#)
            let token = try #require(try signedIn.decode(Events.AuthResponse.self).token)
            #expect(try await client.send(.post, "/events/api/auth/signout", token: token).status == .ok)
            #expect(try await client.send(.post, "/events/api/auth/verify", token: token).status == .unauthorized)
            let social = try await client.send(
                .post, "/events/api/auth/social", json: #"{"provider": "google", "token": "not.a.token"}"#)
            #expect(social.status == .unauthorized)
        }
    }
}
