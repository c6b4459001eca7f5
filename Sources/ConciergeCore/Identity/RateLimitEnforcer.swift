import Foundation

/// Sliding-window limits over events stored in the database. Runs inside a
/// transaction that holds the keys' locks, so the count and the record cannot be raced.
struct RateLimitEnforcer {
    let limits: [RateLimit]
    /// Where a refusal is remembered until its slot frees, if this instance keeps them.
    var refused: RefusedLimits? = nil

    /// Throws `rate_limited` with the wait until the tightest limit frees a slot; otherwise
    /// records one event per distinct key.
    func enforce(in tx: any RateEventLog, now: Date, attemptID: String) async throws {
        var worst: (retryAfter: Int, message: String)?
        for limit in limits {
            let events = try await tx.rateEvents(key: limit.key, since: now.addingTimeInterval(-Double(limit.window)))
            guard events.count >= limit.limit else { continue }
            // A slot frees when the event that keeps the window full drops out of it.
            let frees = events[events.count - limit.limit].addingTimeInterval(Double(limit.window))
            refused?.remember(key: limit.key, until: frees, message: limit.message, now: now)
            let wait = Int(ceil(frees.timeIntervalSince(now)))
            if wait > (worst?.retryAfter ?? 0) { worst = (max(wait, 1), limit.message) }
        }
        if let worst { throw ConciergeError.rateLimited(worst.message, retryAfter: worst.retryAfter) }

        let longestWindow = Dictionary(limits.map { ($0.key, $0.window) }, uniquingKeysWith: max)
        for (key, window) in longestWindow.sorted(by: { $0.key < $1.key }) {
            try await tx.pruneRateEvents(key: key, before: now.addingTimeInterval(-Double(window)))
            try await tx.recordRateEvent(key: key, at: now, attemptID: attemptID)
        }
    }
}
