import Foundation
import Prometheus

/// What the scheduled backups did last, for `/ready` and `/metrics`. Shared by the job that
/// writes it and the requests that read it.
final class BackupStatus: @unchecked Sendable {
    struct Snapshot: Sendable {
        var lastSuccess: Date?
        var lastFailure: (at: Date, error: String)?
    }

    let every: TimeInterval
    private let lock = NSLock()
    private var state = Snapshot()

    init(every: TimeInterval, lastSuccess: Date?) {
        self.every = every
        state.lastSuccess = lastSuccess
    }

    var snapshot: Snapshot { lock.withLock { state } }

    func succeeded(at date: Date) {
        lock.withLock {
            state.lastSuccess = date
            state.lastFailure = nil
        }
    }

    func failed(at date: Date, _ error: String) {
        lock.withLock { state.lastFailure = (date, error) }
    }

    /// The gauges of a scrape: the age of the last good backup (none before the first), and
    /// whether the last attempt failed.
    func record(into registry: PrometheusCollectorRegistry, now: Date) {
        let snapshot = self.snapshot
        if let last = snapshot.lastSuccess {
            registry.makeGauge(
                descriptor: MetricNameDescriptor(
                    metricName: "concierge_backup_last_success_age_seconds", unitName: "",
                    helpText:
                        "Seconds since the last good scheduled backup (CONCIERGE_BACKUP_EVERY); absent before the first."
                )
            ).set(max(0, now.timeIntervalSince(last)))
        }
        registry.makeGauge(
            descriptor: MetricNameDescriptor(
                metricName: "concierge_backup_last_failed", unitName: "",
                helpText: "1 when the last scheduled backup attempt failed (see /ready for why), else 0.")
        ).set(snapshot.lastFailure == nil ? 0.0 : 1.0)
    }
}
