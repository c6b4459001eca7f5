import ConciergeCore
import ConciergeStore
import Foundation
import NIOConcurrencyHelpers

extension MaintenanceJob {
    /// The retention sweep (`CONCIERGE_RETENTION_*`): periods are days, so it runs at most once an
    /// hour per instance, not on every tick of the worker.
    static func retention(database: any SQLDatabase, environment: [String: String], clock: any TimeSource)
        throws(ConfigurationError) -> MaintenanceJob
    {
        let sweeper = SQLRetentionSweeper(database: database, retention: try RetentionPeriods(environment: environment))
        let lastRun = NIOLockedValueBox<Date?>(nil)
        return MaintenanceJob("personal data retention") {
            let now = clock.now
            let due = lastRun.withLockedValue { last in
                guard last.map({ now.timeIntervalSince($0) >= 3600 }) ?? true else { return false }
                last = now
                return true
            }
            if due { try await sweeper.sweep(now: now) }
        }
    }
}
