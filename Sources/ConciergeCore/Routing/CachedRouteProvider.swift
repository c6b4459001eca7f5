public import Foundation

/// Remembers routes by (origin, destination, 15-minute departure bucket) for a while, so repeated
/// quotes for the same trip do not call the routing provider (and its bill) again.
public final class CachedRouteProvider: RouteProvider, @unchecked Sendable {
    public static let bucketSeconds: TimeInterval = 15 * 60

    private struct Key: Hashable {
        let origin: String
        let destination: String
        let bucket: Int64
    }

    private let upstream: any RouteProvider
    private let clock: any TimeSource
    private let lifetime: TimeInterval
    private let capacity: Int
    private let lock = NSLock()
    private var entries: [Key: (route: RouteEstimate, storedAt: Date)] = [:]

    /// - Parameters:
    ///   - lifetime: how long a cached route is used (traffic changes; default 10 minutes).
    ///   - capacity: at most this many routes are kept; the oldest go first.
    public init(
        upstream: any RouteProvider, clock: any TimeSource, lifetime: TimeInterval = 600, capacity: Int = 10_000
    ) {
        self.upstream = upstream
        self.clock = clock
        self.lifetime = lifetime
        self.capacity = capacity
    }

    public func route(from origin: PlaceDetails, to destination: PlaceDetails, departure: Date) async throws
        -> RouteEstimate
    {
        let key = Key(
            origin: origin.placeId, destination: destination.placeId,
            bucket: Int64((departure.timeIntervalSince1970 / Self.bucketSeconds).rounded(.down)))
        let now = clock.now
        if let hit = lock.withLock({ entries[key] }), now.timeIntervalSince(hit.storedAt) < lifetime {
            return hit.route
        }
        // Failures are not cached: a provider outage should not outlive itself.
        let route = try await upstream.route(from: origin, to: destination, departure: departure)
        lock.withLock {
            if entries.count >= capacity { makeRoom(now: now) }
            entries[key] = (route, now)
        }
        return route
    }

    /// Call with `lock` held. Drops the expired entries and, if that is not enough, the older
    /// half. Evicting one entry per insert scanned the whole cache each time: with the cache
    /// full, every new quote paid two passes over 10,000 entries under the lock.
    private func makeRoom(now: Date) {
        entries = entries.filter { now.timeIntervalSince($0.value.storedAt) < lifetime }
        guard entries.count >= capacity else { return }
        let newest = entries.sorted { $0.value.storedAt > $1.value.storedAt }.prefix(capacity / 2)
        entries = Dictionary(uniqueKeysWithValues: newest.map { ($0.key, $0.value) })
    }
}
