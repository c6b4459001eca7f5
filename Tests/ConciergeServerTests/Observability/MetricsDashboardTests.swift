import ConciergeModels
import ConciergeTestSupport
import Foundation
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// The Grafana dashboard in `ops/grafana/concierge.json` draws only metrics the server exports.
@Suite struct MetricsDashboardTests {
    /// The metric families of issue 16, as Prometheus names them. The database and provider
    /// families come from the instrumentation decorators on the global metrics system.
    static let shared: Set<String> = [
        "concierge_http_requests_total", "concierge_http_request_duration_seconds",
        "concierge_db_transaction_duration_seconds", "concierge_db_transactions_in_flight",
        "concierge_db_transaction_errors_total", "concierge_provider_requests_total",
        "concierge_provider_request_duration_seconds", "concierge_orders", "concierge_bookings",
        "concierge_holds_active", "concierge_holds_lapsed_total", "concierge_payments_total",
        "concierge_outbox_backlog", "concierge_outbox_oldest_age_seconds", "concierge_webhook_deliveries_total",
        "concierge_sms_sends_total", "concierge_sms_sends_budget_per_hour", "concierge_signin_failures_total",
    ]

    @Test func everyMetricTheDashboardDrawsIsExportedOrShared() async throws {
        let drawn = try Self.dashboardMetricNames()
        #expect(drawn.count >= 15)
        #expect(drawn.subtracting(Self.shared).isEmpty, "not exported: \(drawn.subtracting(Self.shared).sorted())")
        let app = try await TestApp.withMetrics()
        let exported = try await app.run { client in
            let token = try await client.signedInCustomer()
            let booked = try await client.book(token: token, pickupAt: app.clock.now.addingTimeInterval(3 * 86_400))
            _ = try await client.checkout(
                try #require(try booked.decode(BookingResponse.self).checkoutUrl), outcome: "paid")
            _ = try await client.send(
                .post, "/rides/sms-code-verify", json: #"{"phone": "+41791234567", "code": "000000"}"#)
            return try await client.scrape().names.filter { $0.hasPrefix("concierge_") }
        }
        #expect(
            exported.subtracting(Self.shared).isEmpty, "outside the list: \(exported.subtracting(Self.shared).sorted())"
        )
        // What these flows produce, this server exports under the dashboard's names.
        let produced: Set<String> = [
            "concierge_http_requests_total", "concierge_http_request_duration_seconds", "concierge_bookings",
            "concierge_payments_total", "concierge_outbox_backlog", "concierge_outbox_oldest_age_seconds",
            "concierge_holds_lapsed_total", "concierge_sms_sends_total", "concierge_sms_sends_budget_per_hour",
            "concierge_signin_failures_total",
            // The database decorator, through the global metrics system /metrics bootstraps.
            "concierge_db_transaction_duration_seconds", "concierge_db_transactions_in_flight",
            "concierge_db_transaction_errors_total",
        ]
        #expect(produced.subtracting(exported).isEmpty, "missing: \(produced.subtracting(exported).sorted())")
        #expect(produced.subtracting(drawn).isEmpty, "not drawn: \(produced.subtracting(drawn).sorted())")
    }

    /// The metric families the dashboard's PromQL expressions name (histogram series by family).
    static func dashboardMetricNames() throws -> Set<String> {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let data = try Data(contentsOf: root.appendingPathComponent("ops/grafana/concierge.json"))
        let dashboard = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let panels = try #require(dashboard["panels"] as? [[String: Any]])
        let expressions = panels.flatMap {
            ($0["targets"] as? [[String: Any]] ?? []).compactMap { $0["expr"] as? String }
        }
        let name = /concierge_[a-z0-9_]+/
        return Set(
            expressions.flatMap { $0.matches(of: name).map { String($0.output) } }.map { metric in
                for suffix in ["_bucket", "_sum", "_count"] where metric.hasSuffix(suffix) {
                    return String(metric.dropLast(suffix.count))
                }
                return metric
            })
    }
}
