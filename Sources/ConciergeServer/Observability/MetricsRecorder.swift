import Hummingbird
import Metrics
import NIOConcurrencyHelpers
import Prometheus

/// The metrics one application records, in a registry of its own (so two applications in one
/// process — the tests — count apart), through swift-metrics with an explicit factory. Names
/// and labels are the Prometheus ones the Grafana dashboard (`ops/grafana/concierge.json`) uses.
final class MetricsRecorder: Sendable {
    let registry = PrometheusCollectorRegistry()
    private let factory: DescribedMetricsFactory
    private let httpSeries = NIOLockedValueBox<[HTTPSeriesKey: HTTPSeries]>([:])

    init() {
        factory = MetricsBackend.factory(registry: registry)
        // Unlabelled counters are shown from the start at 0, so `rate()` has a first sample.
        for name in ["concierge_holds_lapsed_total", "concierge_sms_sends_total"] {
            _ = Metrics.Counter(label: name, factory: factory)
        }
    }

    // MARK: HTTP

    /// A request answered: counted under its route template, its latency in its histogram.
    func requestAnswered(route: String, method: HTTPRequest.Method, status: Int, nanoseconds: Int64) {
        let series = httpSeries(HTTPSeriesKey(route: route, method: method, status: status))
        series.requests.increment()
        series.duration.recordNanoseconds(nanoseconds)
    }

    /// Creating a metric takes the registry's lock and builds label arrays; a request only looks
    /// its series up here (one of at most routes × methods × statuses).
    private func httpSeries(_ key: HTTPSeriesKey) -> HTTPSeries {
        httpSeries.withLockedValue { cache in
            if let series = cache[key] { return series }
            let method = key.method.rawValue
            let series = HTTPSeries(
                requests: Metrics.Counter(
                    label: "concierge_http_requests_total",
                    dimensions: [("route", key.route), ("method", method), ("status", String(key.status))],
                    factory: factory),
                duration: Metrics.Timer(
                    label: "concierge_http_request_duration_seconds",
                    dimensions: [("route", key.route), ("method", method)],
                    factory: factory))
            cache[key] = series
            return series
        }
    }

    // MARK: Domain

    /// A payment whose outcome the ledger learnt for the first time (paid, failed, canceled,
    /// expired, refunded).
    func paymentReached(provider: String, outcome: String) {
        count("concierge_payments_total", [("provider", provider), ("outcome", outcome)])
    }

    /// A provider webhook delivery and what became of it (applied, duplicate, unknown, ignored,
    /// rejected, retry).
    func webhookDelivered(provider: String, result: String) {
        count("concierge_webhook_deliveries_total", [("provider", provider), ("result", result)])
    }

    /// Holds the expiry job found lapsed and gave back.
    func holdsLapsed(_ number: Int) {
        guard number > 0 else { return }
        count("concierge_holds_lapsed_total", [], by: number)
    }

    func smsCodeSent() {
        count("concierge_sms_sends_total", [])
    }

    /// A refused sign-in: `method` sms_code, password or social; `reason` the error code answered.
    func signInFailed(method: String, reason: String) {
        count("concierge_signin_failures_total", [("method", method), ("reason", reason)])
    }

    /// Domain events are rare next to requests: the registry's own lookup is cache enough.
    private func count(_ name: String, _ dimensions: [(String, String)], by amount: Int = 1) {
        Metrics.Counter(label: name, dimensions: dimensions, factory: factory).increment(by: amount)
    }
}

private struct HTTPSeriesKey: Hashable, Sendable {
    let route: String
    let method: HTTPRequest.Method
    let status: Int
}

private struct HTTPSeries: Sendable {
    let requests: Metrics.Counter
    let duration: Metrics.Timer
}
