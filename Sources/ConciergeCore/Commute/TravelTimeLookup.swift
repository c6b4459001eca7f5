public import Foundation

/// Travel times per 15-minute departure bucket, from the configured provider through a cache,
/// with the heuristic (the offline estimator's free flow × the rush-hour profile) when the
/// provider fails or times out. A failing provider never fails an answer; only "there is no
/// route at all", which the heuristic also says, does.
public final class TravelTimeLookup: Sendable {
    public static let bucketSeconds: TimeInterval = 15 * 60

    public struct Answer: Sendable, Equatable {
        public let travel: TravelTime
        /// True when the heuristic answered for a failed provider (or is the provider).
        public let heuristic: Bool
    }

    private let primary: (any TravelTimeProvider)?
    private let heuristic: any TravelTimeProvider
    private let cache: BucketCache<Answer>
    private let clock: any TimeSource

    /// - Parameters:
    ///   - primary: a live provider, or nil to use the heuristic alone (the offline default).
    ///   - lifetime: how long a live answer is reused; traffic changes.
    public init(
        primary: (any TravelTimeProvider)?, heuristic: any TravelTimeProvider, clock: any TimeSource,
        lifetime: TimeInterval = 600, capacity: Int = 50_000
    ) {
        self.primary = primary
        self.heuristic = heuristic
        self.clock = clock
        self.cache = BucketCache(lifetime: lifetime, capacity: capacity)
    }

    public var providerName: String { primary?.name ?? heuristic.name }

    /// The bucket's start for a departure time.
    public static func bucketStart(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 / bucketSeconds).rounded(.down) * bucketSeconds)
    }

    /// The travel time for departures in the bucket starting at `bucket`.
    public func travel(from origin: Coordinate, to destination: Coordinate, bucket: Date) async throws -> Answer {
        let key = "\(Self.key(origin))>\(Self.key(destination))@\(Int(bucket.timeIntervalSince1970))"
        let now = clock.now
        if let hit = cache.value(for: key, now: now) { return hit }
        let answer: Answer
        if let primary {
            do {
                answer = Answer(
                    travel: try await primary.travelTime(from: origin, to: destination, departure: bucket),
                    heuristic: false)
            } catch {
                // Any provider failure (including its own "no route", which may be a provider
                // quirk) gets the heuristic, which says "no route" itself when there is none.
                // Not cached: an outage should not outlive itself.
                return Answer(
                    travel: try await heuristic.travelTime(from: origin, to: destination, departure: bucket),
                    heuristic: true)
            }
        } else {
            answer = Answer(
                travel: try await heuristic.travelTime(from: origin, to: destination, departure: bucket),
                heuristic: true)
        }
        cache.store(answer, for: key, now: now)
        return answer
    }

    /// Coordinates to about 10 m: the same door, the same cache entry.
    static func key(_ point: Coordinate) -> String {
        "\((point.latitude * 10_000).rounded() / 10_000),\((point.longitude * 10_000).rounded() / 10_000)"
    }
}

/// A small time-limited cache behind a lock.
final class BucketCache<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String: (value: Value, storedAt: Date)] = [:]
    private let lifetime: TimeInterval
    private let capacity: Int

    init(lifetime: TimeInterval, capacity: Int) {
        self.lifetime = lifetime
        self.capacity = capacity
    }

    func value(for key: String, now: Date) -> Value? {
        lock.withLock {
            guard let hit = entries[key], now.timeIntervalSince(hit.storedAt) < lifetime else { return nil }
            return hit.value
        }
    }

    func store(_ value: Value, for key: String, now: Date) {
        lock.withLock {
            if entries.count >= capacity {
                // Expired entries first; if the cache is still full, start over (rare, and
                // cheaper than an ordered eviction on every insert).
                entries = entries.filter { now.timeIntervalSince($0.value.storedAt) < lifetime }
                if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            }
            entries[key] = (value, now)
        }
    }
}
