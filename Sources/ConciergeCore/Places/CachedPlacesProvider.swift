public import Foundation

/// Remembers place details for hours: a place's address and coordinates rarely change, and
/// every quote asks for two of them (with Google, two billed calls per request; security review
/// finding 7). Autocomplete is passed through: its answers depend on what is typed.
public final class CachedPlacesProvider: PlacesProvider, @unchecked Sendable {
    private let upstream: any PlacesProvider
    private let clock: any TimeSource
    private let lifetime: TimeInterval
    private let capacity: Int
    private let lock = NSLock()
    private var entries: [String: (details: PlaceDetails, storedAt: Date)] = [:]

    public init(
        upstream: any PlacesProvider, clock: any TimeSource, lifetime: TimeInterval = 6 * 3600, capacity: Int = 20_000
    ) {
        self.upstream = upstream
        self.clock = clock
        self.lifetime = lifetime
        self.capacity = capacity
    }

    public func autocomplete(input: String, near: Coordinate?, sessionToken: String?) async throws
        -> [PlaceSuggestion]
    {
        try await upstream.autocomplete(input: input, near: near, sessionToken: sessionToken)
    }

    public func details(placeId: String, sessionToken: String?) async throws -> PlaceDetails? {
        let now = clock.now
        if let hit = lock.withLock({ entries[placeId] }), now.timeIntervalSince(hit.storedAt) < lifetime {
            return hit.details
        }
        // Unknown ids and failures are not cached.
        guard let details = try await upstream.details(placeId: placeId, sessionToken: sessionToken) else {
            return nil
        }
        lock.withLock {
            if entries.count >= capacity {
                entries = entries.filter { now.timeIntervalSince($0.value.storedAt) < lifetime }
                if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            }
            entries[placeId] = (details, now)
        }
        return details
    }
}
