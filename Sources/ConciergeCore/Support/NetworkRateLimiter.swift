import Foundation

/// A token bucket per client network, kept in memory: at most `perMinute` requests a minute,
/// bursts up to that many. For public reads that cost the operator money at a provider (Google
/// Places and Routes behind pricing and autocomplete; security review finding 7). Each instance
/// counts on its own, so N instances allow N times the rate: a bound on a bill, not a quota.
public final class NetworkRateLimiter: @unchecked Sendable {
    private let perMinute: Double
    private let clock: any TimeSource
    private let lock = NSLock()
    private var buckets: [String: (tokens: Double, at: Date)] = [:]

    public init(perMinute: Int, clock: any TimeSource) {
        self.perMinute = Double(perMinute)
        self.clock = clock
    }

    /// Nil when the request may go ahead; otherwise the seconds until one more is allowed.
    public func retryAfter(network: String) -> Int? {
        let now = clock.now
        return lock.withLock {
            if buckets.count > 50_000 { forgetFullBuckets(now: now) }
            var bucket = buckets[network] ?? (perMinute, now)
            bucket.tokens = min(perMinute, bucket.tokens + now.timeIntervalSince(bucket.at) * perMinute / 60)
            bucket.at = now
            guard bucket.tokens >= 1 else {
                buckets[network] = bucket
                return max(1, Int(((1 - bucket.tokens) * 60 / perMinute).rounded(.up)))
            }
            bucket.tokens -= 1
            buckets[network] = bucket
            return nil
        }
    }

    /// A bucket that has refilled is the same as none. Call with `lock` held.
    private func forgetFullBuckets(now: Date) {
        buckets = buckets.filter { $0.value.tokens + now.timeIntervalSince($0.value.at) * perMinute / 60 < perMinute }
    }
}
