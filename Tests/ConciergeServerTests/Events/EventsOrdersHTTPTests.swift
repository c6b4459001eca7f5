import ConciergeModels
import ConciergeTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// The box office's order list and detail (admin token): newest first, filtered by show and
/// status, paged by cursor; the detail shows the buyer, the payment and the door scans.
@Suite struct EventsOrdersHTTPTests {
    static let admin = EventsCheckInHTTPTests.scanner

    struct Order: Decodable {
        struct CheckIn: Decodable {
            let seatId: String
            let gate: String
        }

        let id: String
        let reference: String
        let status: String
        let showId: String
        let email: String
        let seats: [Events.BookedSeat]
        let totalAmountCents: Int
        let paymentProvider: String
        let checkIns: [CheckIn]?
    }

    @Test(arguments: TestEngine.all)
    func theBoxOfficeListsOrdersAndShowsOne(engine: TestEngine) async throws {
        let app = try await EventsTestApp.make(engine, ["CONCIERGE_ADMIN_TOKEN": Self.admin])
        try await app.runWithWorker { client, worker in
            let paid = try await EventsCheckInHTTPTests.paidTicket(
                client, worker: worker, seats: ["stalls-E1", "stalls-E2"])
            app.clock.advance(by: 60)
            let ben = try await client.eventsBuyer("ben@example.ch", worker: worker)
            let pending = try await client.seatCheckout(ben, show: "shw_demo_2", seats: ["circle-N1"])
                .decode(Events.SeatCheckoutResponse.self)
            _ = try await EventsCheckInHTTPTests.scan(client, qrCode: paid.qrCode)

            #expect(try await client.send(.get, "/events/api/admin/orders").status == .unauthorized)
            #expect(try await client.send(.get, "/events/api/admin/orders", token: ben).status == .unauthorized)

            let all = try await client.send(.get, "/events/api/admin/orders", token: Self.admin).decode([Order].self)
            #expect(all.map(\.id) == [pending.orderId, paid.orderID])
            #expect(all.map(\.status) == ["pending", "confirmed"])
            #expect(all[0].email == "ben@example.ch" && all[0].seats.map(\.id) == ["circle-N1"])
            #expect(all[1].seats.map(\.id) == ["stalls-E1", "stalls-E2"] && all[1].checkIns == nil)

            let ofShow = try await client.send(.get, "/events/api/admin/orders?showId=shw_demo_2", token: Self.admin)
                .decode([Order].self)
            #expect(ofShow.map(\.id) == [pending.orderId])
            let confirmed = try await client.send(.get, "/events/api/admin/orders?status=confirmed", token: Self.admin)
                .decode([Order].self)
            #expect(confirmed.map(\.id) == [paid.orderID])

            // Pages: one order a page, the cursor in X-Next-Cursor.
            let first = try await client.send(.get, "/events/api/admin/orders?limit=1", token: Self.admin)
            let cursor = try #require(first.headers[.init("X-Next-Cursor")!])
            let second = try await client.send(
                .get, "/events/api/admin/orders?limit=1&cursor=\(cursor)", token: Self.admin
            ).decode([Order].self)
            #expect(second.map(\.id) == [paid.orderID])

            for bad in ["status=paid", "limit=0", "limit=101", "cursor=x", "showId="] {
                #expect(
                    try await client.send(.get, "/events/api/admin/orders?\(bad)", token: Self.admin).status
                        == .badRequest, "\(bad)")
            }
            #expect(
                try await client.send(.get, "/events/api/admin/orders?showId=shw_nope", token: Self.admin).status
                    == .notFound)

            let detail = try await client.send(.get, "/events/api/admin/orders/\(paid.orderID)", token: Self.admin)
                .decode(Order.self)
            #expect(detail.status == "confirmed" && detail.paymentProvider == "sandbox")
            #expect(detail.totalAmountCents > 0 && detail.reference.hasPrefix("EVT-"))
            #expect(detail.checkIns?.map(\.seatId) == ["stalls-E1", "stalls-E2"])
            #expect(detail.checkIns?.allSatisfy { $0.gate == "north" } == true)
            #expect(
                try await client.send(.get, "/events/api/admin/orders/ord_nope", token: Self.admin).status == .notFound)
        }
    }
}
