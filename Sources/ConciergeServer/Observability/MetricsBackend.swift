import Metrics
public import Prometheus

/// The process's Prometheus backend for swift-metrics. Libraries and the instrumentation
/// decorators record through the global `MetricsSystem`; it is bootstrapped with a factory over
/// `registry` at most once per process, whichever comes first: `concierge serve` at start, or
/// the first application built with /metrics on (so any number of test applications share it).
public enum MetricsBackend {
    /// The registry behind the global `MetricsSystem`; /metrics renders it.
    public static var registry: PrometheusCollectorRegistry {
        _ = bootstrapped
        return sharedRegistry
    }

    /// Bootstraps `MetricsSystem` with the Prometheus factory. Safe to call any number of times.
    public static func bootstrap() {
        _ = bootstrapped
    }

    /// A factory over `registry` with Concierge's histogram buckets and a help text for every
    /// family (`MetricsHelp`).
    public static func factory(registry: PrometheusCollectorRegistry) -> DescribedMetricsFactory {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = durationBuckets
        return DescribedMetricsFactory(factory)
    }

    /// Request, transaction and provider-call durations: 1 ms to 10 s. The defaults start at
    /// 5 ms, which would put every health check and price in one bucket.
    static let durationBuckets: [Duration] = [
        .milliseconds(1), .microseconds(2500), .milliseconds(5), .milliseconds(10), .milliseconds(25),
        .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1),
        .milliseconds(2500), .seconds(5), .seconds(10),
    ]

    private static let sharedRegistry = PrometheusCollectorRegistry()

    /// A static `let` runs its initialiser exactly once, even when two threads race to it.
    private static let bootstrapped: Void = {
        MetricsSystem.bootstrap(factory(registry: sharedRegistry))
    }()
}
