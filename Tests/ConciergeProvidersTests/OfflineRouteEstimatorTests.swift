import ConciergeCore
import ConciergeProviders
import Foundation
import Testing

@Suite struct OfflineRouteEstimatorTests {
    static func place(_ id: String, _ latitude: Double, _ longitude: Double, zone: String = "Europe/Zurich")
        -> PlaceDetails
    {
        PlaceDetails(
            placeId: id, name: id, formattedAddress: id,
            coordinate: Coordinate(latitude: latitude, longitude: longitude),
            kind: .city, timeZone: zone)
    }

    static let zurichAirport = place("zrh", 47.4647, 8.54917)
    static let zurich = place("zurich", 47.36667, 8.55)
    static let bern = place("bern", 46.94809, 7.44744)
    static let lisbon = place("lisbon", 38.7223, -9.1393, zone: "Europe/Lisbon")
    static let newYork = place("jfk", 40.63993, -73.77869, zone: "America/New_York")

    @Test func distanceIsTheGreatCircleTimesTheDetourFactor() throws {
        let route = try OfflineRouteEstimator().estimate(from: Self.zurichAirport, to: Self.zurich)
        let straight = Self.zurichAirport.coordinate.distanceKilometers(to: Self.zurich.coordinate)
        #expect(abs(straight - 10.9) < 0.3)
        #expect(route.distanceMeters == Int((straight * 1.3 * 1000).rounded()))
    }

    @Test func longerTripsAreFasterOnAverage() throws {
        let short = try OfflineRouteEstimator().estimate(from: Self.zurichAirport, to: Self.zurich)
        let long = try OfflineRouteEstimator().estimate(from: Self.zurich, to: Self.bern)
        let shortSpeed = Double(short.distanceMeters) / Double(short.durationSeconds)
        let longSpeed = Double(long.distanceMeters) / Double(long.durationSeconds)
        #expect(longSpeed > shortSpeed)
        // Zurich–Bern: about 125 km by road and 1.5 hours in the estimate.
        #expect((100_000...140_000).contains(long.distanceMeters))
        #expect((75 * 60...110 * 60).contains(long.durationSeconds))
    }

    @Test func theEstimateIsDeterministic() throws {
        let first = try OfflineRouteEstimator().estimate(from: Self.zurich, to: Self.bern)
        let second = try OfflineRouteEstimator().estimate(from: Self.zurich, to: Self.bern)
        #expect(first == second)
    }

    @Test func noRouteForTheSamePlaceOverOneThousandKilometresOrAcrossContinents() {
        for (origin, destination) in [
            (Self.zurich, Self.zurich), (Self.zurich, Self.lisbon), (Self.zurich, Self.newYork),
        ] {
            #expect {
                try OfflineRouteEstimator().estimate(from: origin, to: destination)
            } throws: { ($0 as? ConciergeError)?.code == "route_failed" }
        }
    }
}

@Suite struct CachedRouteProviderTests {
    /// Counts calls; answers a fixed route.
    final class CountingRoutes: RouteProvider, @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        var calls: Int { lock.withLock { count } }
        func route(from origin: PlaceDetails, to destination: PlaceDetails, departure: Date) async throws
            -> RouteEstimate
        {
            lock.withLock { count += 1 }
            return RouteEstimate(distanceMeters: 1000, durationSeconds: 60)
        }
    }

    @Test func repeatedQuotesInOneQuarterHourUseTheCacheUntilItExpires() async throws {
        let upstream = CountingRoutes()
        let clock = ManualTimeSource()
        let cache = CachedRouteProvider(upstream: upstream, clock: clock, lifetime: 600)
        let departure = Date(timeIntervalSince1970: 1_800_000_000)  // on a quarter-hour boundary
        let a = OfflineRouteEstimatorTests.zurich
        let b = OfflineRouteEstimatorTests.bern
        _ = try await cache.route(from: a, to: b, departure: departure)
        _ = try await cache.route(from: a, to: b, departure: departure.addingTimeInterval(14 * 60))
        #expect(upstream.calls == 1)
        _ = try await cache.route(from: a, to: b, departure: departure.addingTimeInterval(15 * 60))
        #expect(upstream.calls == 2)
        _ = try await cache.route(from: b, to: a, departure: departure)
        #expect(upstream.calls == 3)
        clock.advance(by: 601)
        _ = try await cache.route(from: a, to: b, departure: departure)
        #expect(upstream.calls == 4)
    }

    @Test func aFullCacheMakesRoomForNewRoutesAndKeepsTheNewest() async throws {
        let upstream = CountingRoutes()
        let clock = ManualTimeSource()
        let cache = CachedRouteProvider(upstream: upstream, clock: clock, lifetime: 600, capacity: 10)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let a = OfflineRouteEstimatorTests.zurich
        let b = OfflineRouteEstimatorTests.bern
        func quote(_ quarter: Int) async throws {
            _ = try await cache.route(from: a, to: b, departure: start.addingTimeInterval(Double(quarter) * 900))
        }
        for quarter in 0..<10 {
            clock.advance(by: 1)
            try await quote(quarter)
        }
        #expect(upstream.calls == 10)
        clock.advance(by: 1)
        try await quote(10)  // full: the older half goes
        #expect(upstream.calls == 11)
        for quarter in [5, 6, 7, 8, 9, 10] { try await quote(quarter) }
        #expect(upstream.calls == 11)
        try await quote(0)
        #expect(upstream.calls == 12)
    }
}
