import Foundation

/// What the measured server records and exports besides its answers (issue 16's overhead budget).
public enum BenchmarkObservability: String, Sendable, CaseIterable, Codable {
    /// Neither metrics nor traces: `concierge serve`'s defaults.
    case off
    /// `/metrics` behind a token and every request traced to a stand-in collector.
    case on
    /// Two servers, one plain and one observed, measured in alternating rounds, so the overhead
    /// is a ratio of one sitting.
    case compare

    /// The suffix of an observed server's scenario names in the report ("health observed").
    static let observedSuffix = " observed"

    /// A fixed token: the benchmark scrapes once at the end to show metrics were really kept.
    static let metricsToken = "bench-metrics-token-0123456789abcdef0123"

    /// The settings that turn metrics and tracing on, exporting to `collector`. The benchmark's
    /// own `OTEL_*` variables (a sampler, say: `OTEL_TRACES_SAMPLER=parentbased_traceidratio`
    /// `OTEL_TRACES_SAMPLER_ARG=0.1`) are passed on to the observed server.
    static func serverEnvironment(
        collector: String, inherited: [String: String] = ProcessInfo.processInfo.environment
    ) -> [String: String] {
        var environment = inherited.filter { $0.key.hasPrefix("OTEL_") }
        environment["CONCIERGE_METRICS_TOKEN"] = metricsToken
        environment["OTEL_EXPORTER_OTLP_ENDPOINT"] = collector
        environment["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] = nil
        environment["OTEL_SERVICE_NAME"] = "concierge-bench"
        return environment
    }

    /// The sampler the observed server was given, for the report ("parentbased_always_on" is
    /// OpenTelemetry's default: every request traced).
    static func samplerDescription(inherited: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let sampler = inherited["OTEL_TRACES_SAMPLER"] ?? "parentbased_always_on"
        return inherited["OTEL_TRACES_SAMPLER_ARG"].map { "\(sampler) \($0)" } ?? sampler
    }
}

/// What the observed server kept: the collector's count of exports and the series on /metrics.
public struct ObservabilitySummary: Sendable, Codable {
    public let sampler: String
    public let traceExports: Int
    public let traceBytes: Int
    /// Sample lines of the observed server's /metrics at the end; nil when it did not answer 200.
    public let metricsSamples: Int?

    static func collect(sink: OTLPSink, port: Int) async -> ObservabilitySummary {
        let scraped = try? await HTTPConnection.with(host: "127.0.0.1", port: port) { connection in
            try await connection.send(.get("/metrics", token: BenchmarkObservability.metricsToken))
        }
        var samples: Int?
        if let scraped, scraped.status == 200 {
            samples =
                String(decoding: scraped.data, as: UTF8.self).split(separator: "\n")
                .filter { !$0.hasPrefix("#") }.count
        }
        let totals = sink.totals
        return ObservabilitySummary(
            sampler: BenchmarkObservability.samplerDescription(), traceExports: totals.exports,
            traceBytes: totals.bytes, metricsSamples: samples)
    }
}
