import Foundation

/// A steady allowance per client network for public reads that cost the operator money at a
/// provider (Google Places and Routes behind pricing and autocomplete; security review finding 7):
/// at most `perMinute` requests a minute, bursts up to that many.
///
/// Counted in the database (the shared `rate_events`, under the network's lock), so it holds for
/// all instances together: two instances let a network through no more often than one. The bucket
/// is kept as one event per network (the generic cell rate algorithm): its time is when the
/// network's bucket is next full again, `60 / perMinute` seconds later per request let through; a
/// request is refused while that is more than a minute minus one request's share away. This costs
/// every request one short transaction (a lock, a read, a delete and an insert); a refusal is then
/// repeated from memory (`RefusedLimits`) until the bucket has room, since other instances'
/// requests only push that moment later.
public final class NetworkRateLimiter: Sendable {
    private let perMinute: Int
    private let store: any OrderLimitStore
    private let clock: any TimeSource
    private let random: any RandomSource
    private let refused: RefusedLimits
    static let message = "Too many requests from your network."

    public init(
        perMinute: Int, store: any OrderLimitStore, clock: any TimeSource, random: any RandomSource,
        refused: RefusedLimits = RefusedLimits()
    ) {
        self.perMinute = perMinute
        self.store = store
        self.clock = clock
        self.random = random
        self.refused = refused
    }

    /// Counts one request of the network, or throws 429 `rate_limited` with the wait until the
    /// next one is allowed.
    public func admit(network: String) async throws {
        let key = "reads:net:\(network)"
        let now = clock.now
        if let refusal = refused.refusal(keys: [key], at: now) { throw refusal }
        let interval = 60 / Double(perMinute)
        let tolerance = 60 - interval
        let attemptID = random.identifier(prefix: "read")
        let refused = self.refused
        try await store.withRateEvents(locking: [key]) { log in
            let kept = try await log.rateEvents(key: key, since: now.addingTimeInterval(-60)).last
            let full = max(kept ?? now, now)
            let ahead = full.timeIntervalSince(now)
            guard ahead <= tolerance else {
                let allowedAt = full.addingTimeInterval(-tolerance)
                refused.remember(key: key, until: allowedAt, message: Self.message, now: now)
                throw ConciergeError.rateLimited(
                    Self.message, retryAfter: max(1, Int(allowedAt.timeIntervalSince(now).rounded(.up))))
            }
            let next = full.addingTimeInterval(interval)
            try await log.pruneRateEvents(key: key, before: next)
            try await log.recordRateEvent(key: key, at: next, attemptID: attemptID)
        }
    }
}
