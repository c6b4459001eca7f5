public import Metrics
public import Prometheus

/// swift-prometheus's swift-metrics factory with one thing added: every family gets its
/// `# HELP` line, from `MetricsHelp`. `PrometheusMetricsFactory` always registers an empty help
/// text (swift-metrics has no place for one), and the registry refuses a second help text for a
/// family it already has, so the help must go in where the family is created: here. Buckets are
/// the wrapped factory's; removing a metric is left to it.
public struct DescribedMetricsFactory: Sendable {
    let base: PrometheusMetricsFactory

    public init(_ base: PrometheusMetricsFactory) {
        self.base = base
    }

    private func descriptor(_ label: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: label, unitName: "", helpText: MetricsHelp.text(for: label))
    }
}

extension DescribedMetricsFactory: CoreMetrics.MetricsFactory {
    public func makeCounter(label: String, dimensions: [(String, String)]) -> any CoreMetrics.CounterHandler {
        base.registry.makeCounter(descriptor: descriptor(label), labels: dimensions)
    }

    public func makeFloatingPointCounter(label: String, dimensions: [(String, String)])
        -> any CoreMetrics.FloatingPointCounterHandler
    {
        base.registry.makeCounter(descriptor: descriptor(label), labels: dimensions)
    }

    public func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any CoreMetrics
        .RecorderHandler
    {
        guard aggregate else { return base.registry.makeGauge(descriptor: descriptor(label), labels: dimensions) }
        let buckets = base.valueHistogramBuckets[label] ?? base.defaultValueHistogramBuckets
        return base.registry.makeValueHistogram(descriptor: descriptor(label), labels: dimensions, buckets: buckets)
    }

    public func makeMeter(label: String, dimensions: [(String, String)]) -> any CoreMetrics.MeterHandler {
        base.registry.makeGauge(descriptor: descriptor(label), labels: dimensions)
    }

    public func makeTimer(label: String, dimensions: [(String, String)]) -> any CoreMetrics.TimerHandler {
        let buckets = base.durationHistogramBuckets[label] ?? base.defaultDurationHistogramBuckets
        return base.registry.makeDurationHistogram(descriptor: descriptor(label), labels: dimensions, buckets: buckets)
    }

    public func destroyCounter(_ handler: any CoreMetrics.CounterHandler) { base.destroyCounter(handler) }
    public func destroyFloatingPointCounter(_ handler: any CoreMetrics.FloatingPointCounterHandler) {
        base.destroyFloatingPointCounter(handler)
    }
    public func destroyRecorder(_ handler: any CoreMetrics.RecorderHandler) { base.destroyRecorder(handler) }
    public func destroyMeter(_ handler: any CoreMetrics.MeterHandler) { base.destroyMeter(handler) }
    public func destroyTimer(_ handler: any CoreMetrics.TimerHandler) { base.destroyTimer(handler) }
}
