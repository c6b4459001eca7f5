import ConciergeCore
import ConciergeModels
import ConciergeStore
import ConciergeTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// Holds lapse after CONCIERGE_EVENTS_HOLD_MINUTES; a payment that completes later is honoured
/// when the seats are still free and refunded (with an email) when someone else has them.
@Suite struct EventsHoldLapseHTTPTests {
    @Test(arguments: TestEngine.all)
    func anUnpaidHoldLapsesAndItsSeatsGoBackOnSale(engine: TestEngine) async throws {
        let app = try await EventsTestApp.make(engine, ["CONCIERGE_EVENTS_HOLD_MINUTES": "5"])
        try await app.runWithWorker { client, worker in
            let anna = try await client.eventsBuyer("anna@example.ch", worker: worker)
            let checkout = try await client.seatCheckout(anna, seats: ["stalls-C7"]).decode(
                Events.SeatCheckoutResponse.self)
            app.clock.advance(by: 4 * 60)
            await worker.tick()
            #expect(try await client.eventSeats()["stalls-C7"]?.status == .reserved)
            app.clock.advance(by: 2 * 60)
            await worker.tick()
            #expect(try await client.eventSeats()["stalls-C7"]?.status == .available)
            #expect(try await client.eventBookings(anna).first?.status == .expired)
            let result = try await client.send(.get, "/events/api/checkout/success?session_id=\(checkout.sessionId)")
            #expect(try result.decode(Events.CheckoutSuccessResponse.self).status == .expired)
        }
    }

    @Test(arguments: TestEngine.all)
    func aLatePaymentIsHonouredWhileTheSeatsAreStillFree(engine: TestEngine) async throws {
        let app = try await EventsTestApp.make(engine)
        try await app.runWithWorker { client, worker in
            let anna = try await client.eventsBuyer("anna@example.ch", worker: worker)
            let checkout = try await client.seatCheckout(anna, seats: ["stalls-D1"]).decode(
                Events.SeatCheckoutResponse.self)
            app.clock.advance(by: 16 * 60)
            _ = try await client.checkout(checkout.url, outcome: "paid")
            #expect(try await client.eventBookings(anna).first?.status == .confirmed)
            #expect(try await client.eventSeats()["stalls-D1"]?.status == .sold)
        }
    }

    @Test(arguments: TestEngine.all)
    func aLatePaymentForSeatsSoldToSomeoneElseIsRefundedWithAnEmail(engine: TestEngine) async throws {
        let app = try await EventsTestApp.make(engine)
        let database = try await app.configuration.storage.open(logger: TestApp.quiet)
        try await app.runWithWorker { client, worker in
            let anna = try await client.eventsBuyer("anna@example.ch", worker: worker)
            let ben = try await client.eventsBuyer("ben@example.ch", worker: worker)
            let late = try await client.seatCheckout(anna, seats: ["stalls-E4"]).decode(
                Events.SeatCheckoutResponse.self)
            app.clock.advance(by: 16 * 60)
            // Only the platform's hold expiry runs: anna's payment page stays open.
            _ = try await SQLHoldStore(database: database).expireLapsedHolds(now: app.clock.now, limit: 10)
            let bens = try await client.seatCheckout(ben, seats: ["stalls-E4"]).decode(Events.SeatCheckoutResponse.self)
            _ = try await client.checkout(bens.url, outcome: "paid")
            _ = try await client.checkout(late.url, outcome: "paid")
            let booking = try #require(try await client.eventBookings(anna).first)
            #expect(booking.status == .refunded && booking.qrCode == nil)
            #expect(try await client.eventBookings(ben).first?.status == .confirmed)
            for _ in 0..<20 { await worker.tick() }
            #expect(try await client.emails(subjectContaining: "was refunded").count == 1)
        }
        try await database.close()
    }
}
