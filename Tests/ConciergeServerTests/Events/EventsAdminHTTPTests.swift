import ConciergeModels
import ConciergeTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// The box office: counts of a show, and cancelling it refunds every order once.
@Suite struct EventsAdminHTTPTests {
    static let admin = EventsCheckInHTTPTests.scanner

    struct Counts: Decodable {
        let sold: Int
        let reserved: Int
        let confirmedOrders: Int
        let revenueCents: Int
        let checkedIn: Int
    }

    struct Cancellation: Decodable {
        let refundedOrders: Int
        let refundedCents: Int
        let releasedOrders: Int
    }

    @Test(arguments: TestEngine.all)
    func cancellingAShowRefundsEveryOrderOnceAndTheCountsSaySo(engine: TestEngine) async throws {
        let app = try await EventsTestApp.make(engine, ["CONCIERGE_ADMIN_TOKEN": Self.admin])
        try await app.runWithWorker { client, worker in
            let paid = try await EventsCheckInHTTPTests.paidTicket(
                client, worker: worker, seats: ["circle-M1", "circle-M2"])
            let ben = try await client.eventsBuyer("ben@example.ch", worker: worker)
            #expect(try await client.seatCheckout(ben, seats: ["gallery-Q1"]).status == .ok)
            _ = try await EventsCheckInHTTPTests.scan(client, qrCode: paid.qrCode)
            #expect(try await client.send(.get, "/events/api/admin/shows/shw_demo_1/counts").status == .unauthorized)
            let counts = try await client.send(.get, "/events/api/admin/shows/shw_demo_1/counts", token: Self.admin)
                .decode(Counts.self)
            #expect(counts.sold == 2 && counts.reserved == 1 && counts.confirmedOrders == 1)
            #expect(counts.revenueCents == 16_000 && counts.checkedIn == 2)

            let cancelled = try await client.send(.post, "/events/api/admin/shows/shw_demo_1/cancel", token: Self.admin)
                .decode(Cancellation.self)
            #expect(cancelled.refundedOrders == 1 && cancelled.refundedCents == 16_000 && cancelled.releasedOrders == 1)
            let again = try await client.send(.post, "/events/api/admin/shows/shw_demo_1/cancel", token: Self.admin)
                .decode(Cancellation.self)
            #expect(again.refundedOrders == 0 && again.releasedOrders == 0)
            #expect(
                try await client.send(.get, "/events/api/shows/shw_demo_1").decode(Events.Show.self).status
                    == .cancelled)
            #expect(try await client.seatCheckout(ben, seats: ["gallery-Q2"]).errorBody?.code == "show_not_on_sale")
            #expect(try await client.eventBookings(ben).first?.status == .cancelled)
            for _ in 0..<20 { await worker.tick() }
            #expect(try await client.emails(subjectContaining: "Cancelled: The Magic Flute").count == 1)
            let notFound = try await client.send(.post, "/events/api/admin/shows/nope/cancel", token: Self.admin)
            #expect(notFound.status == .notFound)
        }
    }
}
