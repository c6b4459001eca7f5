import Foundation
import Testing

/// The real `concierge serve`: the process-wide metrics backend is bootstrapped once, so the
/// database decorator's metrics (recorded through the global system) show next to the request
/// metrics on /metrics.
@Suite(.serialized) struct MetricsServeProcessTests {
    @Test func serveAnswersMetricsWithTheTokenIncludingTheDatabaseTransactions() async throws {
        let server = try TraceServeProcess(environment: ["CONCIERGE_METRICS_TOKEN": MetricsScrape.token])
        try await server.start()
        defer { server.stop() }
        let sent = try await server.send("POST", "/rides/sms-code-send", json: #"{"phone": "+41791234567"}"#)
        #expect(sent.status == 200)

        #expect(try await server.get("/metrics").status == 401)
        let answer = try await server.send("GET", "/metrics", token: MetricsScrape.token)
        #expect(answer.status == 200)
        let scrape = MetricsScrape(answer.body)
        #expect(
            scrape.value("concierge_http_requests_total", ["route": "/rides/sms-code-send", "status": "200"]) == 1)
        #expect(scrape.value("concierge_sms_sends_total") == 1)
        #expect(scrape.value("concierge_db_transaction_duration_seconds_count", ["engine": "sqlite"]) ?? 0 >= 1)
        #expect(scrape.value("concierge_db_transactions_in_flight", ["engine": "sqlite"]) == 0)
    }
}
