import AsyncHTTPClient
import ConciergeTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import ConciergeServer

/// Who may read /metrics: the bearer token on the main port, a port of its own, or nobody.
@Suite struct MetricsEndpointTests {
    @Test func metricsWithoutTheTokenOrWithAWrongOneAre401() async throws {
        let app = try await TestApp.withMetrics()
        try await app.run { client in
            let missing = try await client.send(.get, "/metrics")
            #expect(missing.status == .unauthorized)
            #expect(missing.errorBody?.code == "metrics_unauthorized")
            let wrong = try await client.send(.get, "/metrics", token: String(repeating: "x", count: 40))
            #expect(wrong.status == .unauthorized)
            let prefix = try await client.send(.get, "/metrics", token: String(MetricsScrape.token.dropLast()))
            #expect(prefix.status == .unauthorized)
        }
    }

    @Test func metricsWithTheTokenArePrometheusText() async throws {
        let app = try await TestApp.withMetrics()
        try await app.run { client in
            #expect(try await client.send(.get, "/health").status == .ok)
            let response = try await client.send(.get, "/metrics", token: MetricsScrape.token)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
            let text = String(buffer: response.body)
            #expect(text.contains("# TYPE concierge_http_requests_total counter"))
            #expect(text.contains("# TYPE concierge_http_request_duration_seconds histogram"))
            let scrape = MetricsScrape(text)
            #expect(
                scrape.value("concierge_http_requests_total", ["route": "/health", "method": "GET", "status": "200"])
                    == 1)
            #expect(scrape.value("concierge_sms_sends_budget_per_hour") == 1000)
            for channel in ["email", "sms", "push"] {
                #expect(scrape.value("concierge_outbox_backlog", ["channel": channel]) == 0)
            }
            #expect(scrape.value("concierge_outbox_oldest_age_seconds") == 0)
            // Buckets from 1 ms to 10 s.
            let buckets = scrape.samples.filter { $0.name == "concierge_http_request_duration_seconds_bucket" }
            #expect(Set(buckets.compactMap { $0.labels["le"] }).isSuperset(of: ["0.001", "10.0", "+Inf"]))
        }
    }

    @Test func metricsAre404WhenNeitherATokenNorAPortIsSet() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            let anonymous = try await client.send(.get, "/metrics")
            #expect(anonymous.status == .notFound)
            #expect(try await client.send(.get, "/metrics", token: MetricsScrape.token).status == .notFound)
        }
    }

    @Test func aMetricsPortServesMetricsWithoutATokenAndTheMainPortHasNone() async throws {
        let port = try PostgresTestServer.freePort()
        let app = try await TestApp.make(engine: .sqlite, environment: ["CONCIERGE_METRICS_PORT": String(port)])
        try await app.run { client in
            #expect(try await client.send(.get, "/metrics").status == .notFound)
            #expect(try await client.send(.get, "/health").status == .ok)
            let response = try await Self.getWhenListening("http://127.0.0.1:\(port)/metrics")
            #expect(response.status == 200)
            #expect(response.contentType?.hasPrefix("text/plain; version=0.0.4") == true)
            let scrape = MetricsScrape(response.body)
            #expect(scrape.value("concierge_http_requests_total", ["route": "/health"]) == 1)
            #expect(try await Self.getWhenListening("http://127.0.0.1:\(port)/health").status == 404)
        }
    }

    /// The metrics server starts with the application's other services; until it listens, the
    /// connection is refused.
    static func getWhenListening(_ url: String) async throws -> (status: Int, contentType: String?, body: String) {
        var attempts = 0
        while true {
            do {
                let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(5))
                let body = try await response.body.collect(upTo: 1 << 20)
                return (Int(response.status.code), response.headers.first(name: "content-type"), String(buffer: body))
            } catch  where attempts < 100 {
                attempts += 1
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }
}
