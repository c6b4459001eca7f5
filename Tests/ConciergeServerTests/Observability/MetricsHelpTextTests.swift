import ConciergeTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// Every metric family on /metrics has its `# HELP` line, as `promtool check metrics` wants
/// (without one it warns "no help text"; scripts/check-integrator-tools runs promtool itself).
@Suite struct MetricsHelpTextTests {
    @Test func everyFamilyOnMetricsHasItsHelpText() async throws {
        let app = try await TestApp.withMetrics()
        try await app.run { client in
            // Traffic that creates the request, SMS and sign-in families.
            #expect(try await client.send(.get, "/health").status == .ok)
            _ = try await client.send(.get, "/no-such-page")
            _ = try await client.signIn()
            _ = try await client.send(
                .post, "/rides/sms-code-verify", json: #"{"phone": "+41791234567", "code": "000000"}"#)
            let response = try await client.send(.get, "/metrics", token: MetricsScrape.token)
            let lines = String(buffer: response.body).split(separator: "\n")
            let typed = lines.filter { $0.hasPrefix("# TYPE ") }.map { $0.split(separator: " ")[2] }
            let helped = Dictionary(
                lines.filter { $0.hasPrefix("# HELP ") }.map { line in
                    let parts = line.split(separator: " ", maxSplits: 3)
                    return (parts[2], parts.count > 3 ? String(parts[3]) : "")
                }, uniquingKeysWith: { first, _ in first })
            #expect(typed.count >= 10, "the traffic above should have made at least ten families")
            for family in typed {
                let help = helped[family] ?? ""
                #expect(!help.isEmpty, "\(family) has no # HELP line")
                // A family recorded through swift-metrics is described in MetricsHelp, not left
                // with the fallback text.
                #expect(!help.contains("no description kept"), "\(family) needs an entry in MetricsHelp")
            }
        }
    }

    @Test func aFamilyNotListedStillGetsAHelpText() {
        #expect(MetricsHelp.text(for: "concierge_http_requests_total").hasPrefix("HTTP requests answered"))
        #expect(!MetricsHelp.text(for: "some_library_metric").isEmpty)
    }
}
