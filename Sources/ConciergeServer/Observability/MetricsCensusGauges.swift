import ConciergeCore
import ConciergeStore
import Logging
import Metrics
import Prometheus

/// The gauges read from the database when Prometheus scrapes: orders and bookings by state,
/// active holds, the outbox backlog and its age, and the SMS budget. Each scrape fills a fresh
/// registry, so a state with no rows left disappears instead of showing its last count.
struct MetricsCensusGauges: Sendable {
    let census: SQLOperationsCensus
    let clock: any TimeSource
    /// CONCIERGE_OTP_SENDS_PER_HOUR, drawn next to the sends.
    let smsBudgetPerHour: Int
    let logger: Logger
    /// The scheduled backups' state, when they are on.
    var backups: BackupStatus? = nil

    func registry() async -> PrometheusCollectorRegistry {
        let registry = PrometheusCollectorRegistry()
        let factory = MetricsBackend.factory(registry: registry)
        func gauge(_ name: String, _ value: Int, _ dimensions: [(String, String)] = []) {
            Metrics.Gauge(label: name, dimensions: dimensions, factory: factory).record(value)
        }
        gauge("concierge_sms_sends_budget_per_hour", smsBudgetPerHour)
        let now = clock.now
        backups?.record(into: registry, now: now)
        let figures: SQLOperationsCensus.Figures
        do {
            figures = try await census.figures(now: now)
        } catch {
            // The request metrics are still worth a scrape; the gauges are missing, which alerts.
            logger.warning("metrics: counting orders, holds and the outbox failed: \(error)")
            return registry
        }
        for count in figures.orders {
            gauge("concierge_orders", count.value, Self.dimensions(count, "vertical", "state"))
        }
        for count in figures.bookings {
            gauge("concierge_bookings", count.value, Self.dimensions(count, "vertical", "state"))
        }
        for count in figures.activeHolds {
            gauge("concierge_holds_active", count.value, Self.dimensions(count, "vertical"))
        }
        // Every channel, 0 when empty: an alert on the backlog needs a series to compare.
        let backlog = Dictionary(figures.outboxBacklog.map { ($0.labels["channel"] ?? "", $0.value) }) { $0 + $1 }
        for channel in Set(OutboxMessage.Channel.allCases.map(\.rawValue)).union(backlog.keys) {
            gauge("concierge_outbox_backlog", backlog[channel] ?? 0, [("channel", channel)])
        }
        let oldestAge = figures.oldestPendingNotification.map { max(0, now.timeIntervalSince($0)) } ?? 0
        Metrics.Gauge(label: "concierge_outbox_oldest_age_seconds", factory: factory).record(oldestAge)
        return registry
    }

    /// Labels in a fixed order: the registry tells series apart by their label order too.
    private static func dimensions(_ count: SQLOperationsCensus.Count, _ names: String...) -> [(String, String)] {
        names.map { ($0, count.labels[$0] ?? "") }
    }
}
