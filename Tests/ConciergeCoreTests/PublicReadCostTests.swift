import ConciergeCore
import Foundation
import Testing

/// Security review finding 7: public reads that cost a provider call are bounded.
@Suite struct PublicReadCostTests {
    final class CountingPlaces: PlacesProvider, @unchecked Sendable {
        private let lock = NSLock()
        private var calls = 0
        var detailCalls: Int { lock.withLock { calls } }

        func autocomplete(input: String, near: Coordinate?, sessionToken: String?) async throws -> [PlaceSuggestion] {
            []
        }

        func details(placeId: String, sessionToken: String?) async throws -> PlaceDetails? {
            lock.withLock { calls += 1 }
            guard placeId != "unknown" else { return nil }
            return PlaceDetails(
                placeId: placeId, name: "Zurich Airport", formattedAddress: "8058 Zürich",
                coordinate: Coordinate(latitude: 47.45, longitude: 8.56), kind: .airport, timeZone: "Europe/Zurich")
        }
    }

    @Test func placeDetailsAreAskedOnceForHoursAndUnknownIdsEveryTime() async throws {
        let upstream = CountingPlaces()
        let clock = ManualTimeSource()
        let places = CachedPlacesProvider(upstream: upstream, clock: clock)
        for _ in 0..<5 { _ = try await places.details(placeId: "ChIJ_zrh", sessionToken: nil) }
        #expect(upstream.detailCalls == 1)
        clock.advance(by: 6 * 3600 + 1)
        #expect(try await places.details(placeId: "ChIJ_zrh", sessionToken: nil)?.name == "Zurich Airport")
        #expect(upstream.detailCalls == 2)
        for _ in 0..<3 { #expect(try await places.details(placeId: "unknown", sessionToken: nil) == nil) }
        #expect(upstream.detailCalls == 5)
    }

    @Test func aNetworkGetsItsAllowanceAMinuteRefilledSteadily() async throws {
        let clock = ManualTimeSource()
        let limiter = NetworkRateLimiter(
            perMinute: 3, store: OrderLimitCheckerTests.MemoryStore(), clock: clock, random: SeededRandomSource(seed: 1)
        )
        for _ in 0..<3 { try await limiter.admit(network: "198.51.100.7") }
        #expect(try await Self.retryAfter(limiter, "198.51.100.7") == 20)
        #expect(try await Self.retryAfter(limiter, "2001:db8:1:2::/64") == nil)
        clock.advance(by: 20)
        #expect(try await Self.retryAfter(limiter, "198.51.100.7") == nil)
        #expect(try await Self.retryAfter(limiter, "198.51.100.7") == 20)
        clock.advance(by: 60)
        for _ in 0..<3 { #expect(try await Self.retryAfter(limiter, "198.51.100.7") == nil) }
    }

    /// Nil when the request was let through; the wait it was told otherwise.
    static func retryAfter(_ limiter: NetworkRateLimiter, _ network: String) async throws -> Int? {
        do {
            try await limiter.admit(network: network)
            return nil
        } catch let error as ConciergeError {
            guard case .tooManyRequests(let wait) = error.category else { throw error }
            return wait
        }
    }
}
