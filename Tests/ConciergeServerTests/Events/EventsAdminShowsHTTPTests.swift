import ConciergeCore
import ConciergeModels
import ConciergeTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// Shows created through the admin API on an imported venue: on sale like the demo's, inside
/// their on-sale window only, priced per section; bad shows are 4xx and write nothing.
@Suite struct EventsAdminShowsHTTPTests {
    struct Counts: Decodable {
        let seats: Int
        let sold: Int
        let available: Int
        let confirmedOrders: Int
        let revenueCents: Int
    }

    @Test(arguments: TestEngine.all)
    func anImportedVenuesShowIsBoughtEndToEnd(engine: TestEngine) async throws {
        let app = try await EventsTestApp.make(engine, ["CONCIERGE_ADMIN_TOKEN": TestLayouts.admin])
        try await app.runWithWorker { client, worker in
            let show = try await TestLayouts.createShow(client, now: app.clock.now)
            let listed = try await client.send(.get, "/events/api/shows?q=kleine").decode([Events.Show].self)
            #expect(listed.map(\.id) == [show])
            let detail = try #require(listed.first)
            #expect(detail.status == .onSale && detail.availableSeats == 20 && detail.min_price == 20)
            #expect(detail.max_price == 40 && detail.venue_name == "Kleine Bühne" && detail.onSaleFrom == nil)
            #expect(detail.seat_pricing.map(\.category) == ["A", "B"])
            #expect(detail.seat_pricing.map(\.color) == ["#aa0000", "#00aa00"])
            let map = try await client.send(.get, "/events/api/shows/\(show)/seatmap").decode(Events.SeatMap.self)
            #expect(map.sections.flatMap(\.seats).count == 20 && map.sections[0].seats[0].id == "front-A1")
            let svg = String(buffer: try await client.send(.get, "/events/api/shows/\(show)/seatmap.svg").body)
            #expect(svg.contains("id=\"back-C8\""))

            let anna = try await client.eventsBuyer("anna@example.ch", worker: worker)
            let named = try await client.seatCheckout(anna, show: show, seats: ["front-A3", "front-A4"])
                .decode(Events.SeatCheckoutResponse.self)
            #expect(named.totalAmountCents == 8_000)
            _ = try await client.checkout(named.url, outcome: "paid")
            let booking = try await client.send(.get, "/events/api/checkout/success?session_id=\(named.sessionId)")
                .decode(Events.CheckoutSuccessResponse.self).booking
            #expect(booking?.status == .confirmed && booking?.venue == "Kleine Bühne")
            let best = try await client.send(
                .post, "/events/api/seat-checkout", json: #"{"showId": "\#(show)", "quantity": 2, "section": "back"}"#,
                token: anna
            ).decode(Events.SeatCheckoutResponse.self)
            #expect(best.seatIds == ["back-C4", "back-C5"] && best.totalAmountCents == 4_000)
            _ = try await client.checkout(best.url, outcome: "paid")
            _ = try await client.send(.get, "/events/api/checkout/success?session_id=\(best.sessionId)")

            let counts = try await client.send(.get, "/events/api/admin/shows/\(show)/counts", token: TestLayouts.admin)
                .decode(Counts.self)
            #expect(counts.seats == 20 && counts.sold == 4 && counts.available == 16)
            #expect(counts.confirmedOrders == 2 && counts.revenueCents == 12_000)
        }
    }

    @Test(arguments: TestEngine.all)
    func seatsSellOnlyInsideTheOnSaleWindow(engine: TestEngine) async throws {
        let app = try await EventsTestApp.make(engine, ["CONCIERGE_ADMIN_TOKEN": TestLayouts.admin])
        try await app.runWithWorker { client, worker in
            let now = app.clock.now
            let from = WireDate.string(from: now.addingTimeInterval(86_400))
            let until = WireDate.string(from: now.addingTimeInterval(3 * 86_400))
            let show = try await TestLayouts.createShow(
                client, now: now, extra: #""onSaleFrom": "\#(from)", "onSaleUntil": "\#(until)""#)
            let anna = try await client.eventsBuyer("anna@example.ch", worker: worker)

            // Listed before sales open, with the day they open, but not purchasable.
            let early = try await client.send(.get, "/events/api/shows/\(show)").decode(Events.Show.self)
            #expect(early.status == .notYetOnSale && early.onSaleFrom == from && early.onSaleUntil == until)
            #expect(
                try await client.send(.get, "/events/api/shows").decode([Events.Show].self).contains { $0.id == show })
            let refused = try await client.seatCheckout(anna, show: show, seats: ["front-A1"])
            #expect(refused.status == .conflict && refused.errorBody?.code == "show_not_on_sale")
            #expect(refused.errorBody?.error.contains("sales open") == true)

            app.clock.advance(by: 86_400)
            #expect(try await client.send(.get, "/events/api/shows/\(show)").decode(Events.Show.self).status == .onSale)
            #expect(try await client.seatCheckout(anna, show: show, seats: ["front-A1"]).status == .ok)

            app.clock.advance(by: 2 * 86_400)
            #expect(
                try await client.send(.get, "/events/api/shows/\(show)").decode(Events.Show.self).status == .salesEnded)
            let late = try await client.seatCheckout(anna, show: show, seats: ["front-A2"])
            #expect(late.status == .conflict && late.errorBody?.error.contains("sales closed") == true)
        }
    }

    @Test(arguments: TestEngine.all)
    func aPriceChangeAppliesToNewOrdersOnly(engine: TestEngine) async throws {
        let app = try await EventsTestApp.make(engine, ["CONCIERGE_ADMIN_TOKEN": TestLayouts.admin])
        try await app.runWithWorker { client, worker in
            let show = try await TestLayouts.createShow(client, now: app.clock.now)
            let anna = try await client.eventsBuyer("anna@example.ch", worker: worker)
            let first = try await client.seatCheckout(anna, show: show, seats: ["front-A1"])
                .decode(Events.SeatCheckoutResponse.self)
            _ = try await client.checkout(first.url, outcome: "paid")

            let patched = try await client.send(
                .patch, "/events/api/admin/shows/\(show)",
                json: #"""
                    {"title": "Kammerkonzert (neu)", "categories": [
                      {"name": "A", "priceCents": 6000, "sections": ["front"]},
                      {"name": "B", "priceCents": 2000, "sections": ["back"]}]}
                    """#, token: TestLayouts.admin)
            #expect(patched.status == .ok)
            let changed = try patched.decode(Events.Show.self)
            #expect(changed.title == "Kammerkonzert (neu)" && changed.max_price == 60)
            #expect(try await client.eventBookings(anna).first?.totalAmount == 40)
            let second = try await client.seatCheckout(anna, show: show, seats: ["front-A2"])
                .decode(Events.SeatCheckoutResponse.self)
            #expect(second.totalAmountCents == 6_000)

            // A change of the text keeps each section's colour.
            let retitled = try await client.send(
                .patch, "/events/api/admin/shows/\(show)", json: #"{"description": "Strings and piano."}"#,
                token: TestLayouts.admin
            ).decode(Events.Show.self)
            #expect(retitled.seat_pricing.map(\.color) == ["#aa0000", "#2980b9"])
            #expect(retitled.description == "Strings and piano." && retitled.max_price == 60)

            let currency = try await client.send(
                .patch, "/events/api/admin/shows/\(show)", json: #"{"currency": "EUR"}"#, token: TestLayouts.admin)
            #expect(currency.status == .conflict && currency.errorBody?.code == "show_has_orders")
            let venue = try await client.send(
                .patch, "/events/api/admin/shows/\(show)", json: #"{"venueId": "\#(DemoCatalogue.venueID)"}"#,
                token: TestLayouts.admin)
            #expect(venue.status == .conflict && venue.errorBody?.code == "venue_fixed")
            _ = try await client.send(.post, "/events/api/admin/shows/\(show)/cancel", token: TestLayouts.admin)
            let cancelled = try await client.send(
                .patch, "/events/api/admin/shows/\(show)", json: #"{"title": "Again"}"#, token: TestLayouts.admin)
            #expect(cancelled.status == .conflict && cancelled.errorBody?.code == "show_cancelled")
        }
    }

    @Test(arguments: TestEngine.all)
    func badShowsAreRefusedWithTheErrorBodyAndWriteNothing(engine: TestEngine) async throws {
        let app = try await EventsTestApp.make(engine, ["CONCIERGE_ADMIN_TOKEN": TestLayouts.admin])
        try await app.runWithWorker { client, _ in
            let venue = try await TestLayouts.importVenue(client)
            let now = app.clock.now
            let good = TestLayouts.showJSON(venue: venue, startsAt: now.addingTimeInterval(86_400))
            func replacing(_ old: String, _ new: String) -> String { good.replacingOccurrences(of: old, with: new) }
            let past = TestLayouts.showJSON(venue: venue, startsAt: now.addingTimeInterval(-60))
            let afterStart = WireDate.string(from: now.addingTimeInterval(2 * 86_400))
            let cases: [(String, HTTPResponse.Status, String)] = [
                (replacing(venue, "ven_nope"), .notFound, "venue_not_found"),
                (replacing(#""sections": ["back"]"#, #""sections": ["front"]"#), .badRequest, "invalid_show"),
                (replacing(#""sections": ["back"]"#, #""sections": ["balcony"]"#), .badRequest, "invalid_show"),
                (replacing(#""sections": ["back"]"#, #""sections": []"#), .badRequest, "invalid_show"),
                (replacing("4000", "4050"), .badRequest, "invalid_show"),
                (replacing("4000", "-100"), .badRequest, "invalid_show"),
                (replacing(#""name": "B""#, #""name": "A""#), .badRequest, "invalid_show"),
                (replacing(##""color": "#00aa00""##, ##""color": "green""##), .badRequest, "invalid_show"),
                (replacing("CHF", "chf"), .badRequest, "invalid_show"),
                (replacing(#""title": "Kammerkonzert""#, #""title": " ""#), .badRequest, "invalid_show"),
                (past, .badRequest, "invalid_show"),
                (
                    replacing(#""currency""#, #""onSaleUntil": "\#(afterStart)", "currency""#), .badRequest,
                    "invalid_show"
                ),
                (
                    replacing(
                        #""currency""#, #""onSaleFrom": "\#(afterStart)", "onSaleUntil": "\#(afterStart)", "currency""#),
                    .badRequest, "invalid_show"
                ),
                (
                    replacing(WireDate.string(from: now.addingTimeInterval(86_400)), "next friday"), .badRequest,
                    "invalid_show"
                ),
                (#"{"venueId": "\#(venue)", "title": "#, .badRequest, "invalid_request"),
                (#"{"venueId": "\#(venue)"}"#, .badRequest, "invalid_request"),
            ]
            for (body, status, code) in cases {
                let response = try await client.send(
                    .post, "/events/api/admin/shows", json: body, token: TestLayouts.admin)
                #expect(response.status == status, "\(code) for \(body)")
                let error = try response.decode(ErrorBody.self)
                #expect(error.code == code && !error.error.isEmpty && !error.success, "\(error.error)")
            }
            #expect(try await client.send(.post, "/events/api/admin/shows", json: good).status == .unauthorized)
            let missing = try await client.send(
                .patch, "/events/api/admin/shows/shw_nope", json: #"{"title": "x"}"#, token: TestLayouts.admin)
            #expect(missing.status == .notFound)
            let shows = try await client.send(.get, "/events/api/shows").decode([Events.Show].self)
            #expect(shows.count == DemoCatalogue.shows(after: now).count)
        }
    }
}
