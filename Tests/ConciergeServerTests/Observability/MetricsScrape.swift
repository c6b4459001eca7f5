import ConciergeTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// A /metrics answer, parsed: each series' name, labels and value.
struct MetricsScrape {
    struct Sample {
        let name: String
        let labels: [String: String]
        let value: Double
    }

    static let token = String(repeating: "m", count: 40)
    let samples: [Sample]

    init(_ text: String) {
        samples = text.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#"), let space = line.lastIndex(of: " "),
                let value = Double(line[line.index(after: space)...])
            else { return nil }
            let series = line[..<space]
            guard let brace = series.firstIndex(of: "{") else {
                return Sample(name: String(series), labels: [:], value: value)
            }
            // Test label values hold no commas, quotes or escapes.
            let pairs = series[series.index(after: brace)..<series.index(before: series.endIndex)].split(separator: ",")
            let labels = Dictionary(
                pairs.compactMap { pair -> (String, String)? in
                    guard let equals = pair.firstIndex(of: "=") else { return nil }
                    return (
                        String(pair[..<equals]),
                        String(pair[pair.index(equals, offsetBy: 2)..<pair.index(before: pair.endIndex)])
                    )
                }, uniquingKeysWith: { first, _ in first })
            return Sample(name: String(series[..<brace]), labels: labels, value: value)
        }
    }

    /// The sum of the series of `name` whose labels include `labels`; nil when there is none.
    func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
        let matching = samples.filter { sample in
            sample.name == name && labels.allSatisfy { sample.labels[$0.key] == $0.value }
        }
        return matching.isEmpty ? nil : matching.reduce(0) { $0 + $1.value }
    }

    /// Every metric family exported (histogram series named by their family).
    var names: Set<String> {
        Set(
            samples.map { sample in
                for suffix in ["_bucket", "_sum", "_count"] where sample.name.hasSuffix(suffix) {
                    return String(sample.name.dropLast(suffix.count))
                }
                return sample.name
            })
    }
}

extension TestClientProtocol {
    /// GET /metrics with the test token, parsed.
    func scrape() async throws -> MetricsScrape {
        let response = try await send(.get, "/metrics", token: MetricsScrape.token)
        try #require(response.status == .ok)
        return MetricsScrape(String(buffer: response.body))
    }
}

extension TestApp {
    /// An application whose /metrics answers with `MetricsScrape.token`.
    static func withMetrics(engine: TestEngine = .sqlite) async throws -> TestApp {
        try await make(engine: engine, environment: ["CONCIERGE_METRICS_TOKEN": MetricsScrape.token])
    }
}
