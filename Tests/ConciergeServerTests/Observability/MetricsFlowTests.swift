import ConciergeModels
import ConciergeTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// What the flows leave in /metrics: requests under their route templates, payments, bookings,
/// sign-in failures and code sends. Each application counts in its own registry, so the
/// figures are exact.
@Suite struct MetricsFlowTests {
    @Test(arguments: TestEngine.all)
    func aPaidRideShowsInThePaymentsCounterAndTheBookingsGauge(engine: TestEngine) async throws {
        let app = try await TestApp.withMetrics(engine: engine)
        try await app.run { client in
            let token = try await client.signedInCustomer()
            let booked = try await client.book(token: token, pickupAt: app.clock.now.addingTimeInterval(3 * 86_400))
            let checkoutURL = try #require(try booked.decode(BookingResponse.self).checkoutUrl)
            let before = try await client.scrape()
            #expect(before.value("concierge_bookings", ["vertical": "rides", "state": "awaiting_payment"]) == 1)
            #expect(before.value("concierge_payments_total", ["provider": "sandbox"]) == nil)

            #expect(try await client.checkout(checkoutURL, outcome: "paid").status == .seeOther)
            // Paying twice is refused by the sandbox and counts nothing more.
            _ = try await client.checkout(checkoutURL, outcome: "paid")

            let after = try await client.scrape()
            #expect(after.value("concierge_payments_total", ["provider": "sandbox", "outcome": "paid"]) == 1)
            #expect(after.value("concierge_bookings", ["vertical": "rides", "state": "confirmed"]) == 1)
            #expect(after.value("concierge_bookings", ["vertical": "rides", "state": "awaiting_payment"]) == nil)
            #expect(after.value("concierge_outbox_backlog") ?? 0 >= 1)
            #expect(after.value("concierge_sms_sends_total") == 1)
            #expect(
                after.value(
                    "concierge_http_requests_total", ["route": "/rides/app-book", "method": "POST", "status": "200"])
                    == 1)
        }
    }

    @Test func aParameterisedRouteIsCountedUnderItsTemplateAndAnUnknownPathAsUnknown() async throws {
        let app = try await TestApp.withMetrics()
        try await app.run { client in
            _ = try await client.send(.get, "/events/api/shows/shw_demo_1")
            _ = try await client.send(.get, "/events/api/shows/shw_nope")
            _ = try await client.send(.get, "/wp-admin/setup-config.php")
            _ = try await client.send(.get, "/.env")
            let scrape = try await client.scrape()
            #expect(
                scrape.value("concierge_http_requests_total", ["route": "/events/api/shows/{id}", "method": "GET"]) == 2
            )
            #expect(scrape.value("concierge_http_requests_total", ["route": "unknown", "status": "404"]) == 2)
            let routes = Set(scrape.samples.compactMap { $0.labels["route"] })
            #expect(!routes.contains { $0.contains("shw_") || $0.contains("wp-admin") || $0.contains(".env") })
            #expect(
                scrape.value(
                    "concierge_http_request_duration_seconds_count",
                    ["route": "/events/api/shows/{id}", "method": "GET"])
                    == 2)
        }
    }

    @Test func aWrongSMSCodeIsASignInFailureWithItsReason() async throws {
        let app = try await TestApp.withMetrics()
        try await app.run { client in
            let sent = try await client.send(.post, "/rides/sms-code-send", json: #"{"phone": "+41791234567"}"#)
            #expect(sent.status == .ok)
            let wrong = try await client.send(
                .post, "/rides/sms-code-verify", json: #"{"phone": "+41791234567", "code": "000000"}"#)
            let reason = try #require(wrong.errorBody?.code)
            let scrape = try await client.scrape()
            #expect(scrape.value("concierge_signin_failures_total", ["method": "sms_code", "reason": reason]) == 1)
            #expect(scrape.value("concierge_sms_sends_total") == 1)
        }
    }

    @Test func everySignInRouteTheMetricsCountIsARouteOfTheServer() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        let assembly = try await assemble(configuration: app.configuration, clock: app.clock, logger: TestApp.quiet)
        let templates = Set(assembly.router.routes.map { "\($0.path)" })
        for route in MetricsSignInRoutes.purpose.keys {
            #expect(templates.contains(route), "\(route) is not a route")
        }
        try await assembly.database.close()
    }
}
