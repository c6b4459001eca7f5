import ConciergeModels
import ConciergeTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// The seed app's whole path over HTTP: sign up, verify the email, browse, hold named or best
/// seats, pay in the sandbox, see the booking with its tickets, cancel with a refund.
@Suite struct EventsPurchaseHTTPTests {
    @Test(arguments: TestEngine.all)
    func signUpVerifyHoldPayAndSeeTheBooking(engine: TestEngine) async throws {
        let app = try await EventsTestApp.make(engine)
        try await app.runWithWorker { client, worker in
            let shows = try await client.send(.get, "/events/api/shows").decode([Events.Show].self)
            #expect(shows.count >= 3)
            #expect(shows.allSatisfy { $0.status == .onSale && $0.availableSeats == 336 })
            #expect(Set(shows[0].seat_pricing.map(\.section)).count >= 3)

            let token = try await client.eventsBuyer("anna@example.ch", worker: worker, verified: false)
            let unverified = try await client.seatCheckout(token, seats: ["stalls-A1"])
            #expect(unverified.status == .forbidden)
            #expect(unverified.errorBody?.code == "email_not_verified")
            let link = try await client.eventsVerificationToken(to: "anna@example.ch", worker: worker)
            let verifiedEmail = try await client.send(
                .post, "/events/api/auth/verify-email", json: #"{"token": "\#(link)", "email": "anna@example.ch"}"#,
                token: token)
            #expect(verifiedEmail.status == .ok)
            let verified = try await client.send(.post, "/events/api/auth/verify", token: token)
            #expect(try verified.decode(Events.AuthResponse.self).user?.emailVerified == true)

            let held = try await client.seatCheckout(token, seats: ["stalls-A1", "stalls-A2"])
            #expect(held.status == .ok)
            let checkout = try held.decode(Events.SeatCheckoutResponse.self)
            #expect(checkout.totalAmount == 240 && checkout.totalAmountCents == 24_000)
            let seats = try await client.eventSeats(token: token)
            #expect(seats["stalls-A1"]?.status == .reserved && seats["stalls-A1"]?.heldByYou == true)
            #expect(try await client.eventSeats()["stalls-A1"]?.heldByYou == nil)
            let svg = try await client.send(.get, "/events/api/shows/shw_demo_1/seatmap.svg")
            #expect(svg.headers[.contentType]?.hasPrefix("image/svg+xml") == true)
            let drawing = String(buffer: svg.body)
            #expect(drawing.components(separatedBy: "<circle").count - 1 == 336)
            #expect(drawing.contains(#"id="stalls-A1" cx="#) && drawing.contains(#"data-status="reserved""#))
            let pending = try await client.send(.get, "/events/api/checkout/success?session_id=\(checkout.sessionId)")
            #expect(try pending.decode(Events.CheckoutSuccessResponse.self).status == .pending)

            let paid = try await client.checkout(checkout.url, outcome: "paid")
            #expect(paid.headers[.location]?.contains("/events/api/checkout/success?session_id=") == true)
            let result = try await client.send(
                .get, "/events/api/checkout/success?session_id=\(checkout.sessionId)", token: token
            ).decode(Events.CheckoutSuccessResponse.self)
            let booking = try #require(result.booking)
            #expect(booking.status == .confirmed && booking.seats.count == 2 && booking.qrCode != nil)
            #expect(booking.showTime == "19:30:00")
            #expect(try await client.eventSeats()["stalls-A2"]?.status == .sold)
            #expect(try await client.eventBookings(token).map(\.id) == [checkout.orderId])
            for _ in 0..<20 { await worker.tick() }
            let mails = try await client.emails(subjectContaining: booking.reference)
            #expect(mails.count == 1)
            #expect((mails.first?["body"] as? String)?.contains(booking.qrCode ?? "?") == true)
            #expect(
                (mails.first?["attachments"] as? [String])
                    == booking.seats.map { "ticket-\($0.id).png" } + ["tickets-\(booking.reference).txt", "show.ics"])
        }
    }

    @Test(arguments: TestEngine.all)
    func namedSeatsAreAllOrNothing(engine: TestEngine) async throws {
        let app = try await EventsTestApp.make(engine)
        try await app.runWithWorker { client, worker in
            let anna = try await client.eventsBuyer("anna@example.ch", worker: worker)
            let ben = try await client.eventsBuyer("ben@example.ch", worker: worker)
            #expect(try await client.seatCheckout(anna, seats: ["circle-L5"]).status == .ok)
            let clash = try await client.seatCheckout(ben, seats: ["circle-L4", "circle-L5"])
            #expect(clash.status == .conflict)
            let body = try clash.decode(Events.SeatsUnavailable.self)
            #expect(body.code == "seats_unavailable" && body.unavailableSeatIds == ["circle-L5"])
            #expect(try await client.eventSeats()["circle-L4"]?.status == .available)
            #expect(try await client.eventBookings(ben).isEmpty)
        }
    }

    @Test(arguments: TestEngine.all)
    func bestAvailableHoldsAdjacentSeatsWithoutLeavingASingleGap(engine: TestEngine) async throws {
        let app = try await EventsTestApp.make(engine)
        try await app.runWithWorker { client, worker in
            let anna = try await client.eventsBuyer("anna@example.ch", worker: worker)
            let best = try await client.send(
                .post, "/events/api/seat-checkout",
                json: #"{"showId": "shw_demo_2", "quantity": 4, "section": "gallery"}"#,
                token: anna)
            #expect(best.status == .ok)
            let seats = try best.decode(Events.SeatCheckoutResponse.self).seatIds
            let numbers = seats.compactMap { Int($0.drop { !$0.isNumber }) }.sorted()
            #expect(seats.count == 4 && Set(seats.map { $0.prefix(9) }).count == 1)
            #expect(numbers == Array(numbers[0]...(numbers[0] + 3)))
            #expect(numbers[0] != 2 && numbers[3] != 13)
        }
    }

    @Test(arguments: TestEngine.all)
    func aConfirmedBookingCancelledEarlyIsRefundedAndItsSeatsGoBackOnSale(engine: TestEngine) async throws {
        let app = try await EventsTestApp.make(engine)
        try await app.runWithWorker { client, worker in
            let anna = try await client.eventsBuyer("anna@example.ch", worker: worker)
            let checkout = try await client.seatCheckout(anna, show: "shw_demo_3", seats: ["stalls-B3"])
                .decode(Events.SeatCheckoutResponse.self)
            _ = try await client.checkout(checkout.url, outcome: "paid")
            let cancelled = try await client.send(
                .post, "/events/api/user/bookings/\(checkout.orderId)/cancel", token: anna)
            #expect(cancelled.status == .ok)
            #expect(try cancelled.decode(Events.CheckoutSuccessResponse.self).status == .cancelled)
            #expect(try await client.eventSeats("shw_demo_3")["stalls-B3"]?.status == .available)
            let other = try await client.send(.post, "/events/api/user/bookings/ord_nope/cancel", token: anna)
            #expect(other.status == .notFound)
        }
    }
}
