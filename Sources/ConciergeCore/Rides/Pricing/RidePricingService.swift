public import Foundation

/// Prices a ride between two places at a pickup time: resolves the places, asks for the route,
/// applies the tariff. Bookings use the same service, so a booked price is always the server's.
public struct RidePricingService: Sendable {
    public struct RideQuote: Sendable {
        public let origin: PlaceDetails
        public let destination: PlaceDetails
        public let route: RouteEstimate
        public let pickup: Date
        public let quote: PriceQuote
    }

    private let places: any PlacesProvider
    private let routes: any RouteProvider
    private let calculator: PriceCalculator
    private let clock: any TimeSource

    public init(
        places: any PlacesProvider, routes: any RouteProvider, calculator: PriceCalculator, clock: any TimeSource
    ) {
        self.places = places
        self.routes = routes
        self.calculator = calculator
        self.clock = clock
    }

    /// How far ahead a price can be asked for.
    public static let horizon: TimeInterval = 366 * 24 * 3600
    /// A pickup this far in the past still prices (clocks differ between phone and server).
    public static let pastTolerance: TimeInterval = 5 * 60

    public func price(originPlaceId: String, destinationPlaceId: String, pickup: Date) async throws -> RideQuote {
        let now = clock.now
        guard pickup >= now.addingTimeInterval(-Self.pastTolerance) else {
            throw ConciergeError(
                .invalidInput, code: "invalid_pickup_time",
                message: "The pickup time is in the past. Choose a time in the future.")
        }
        guard pickup <= now.addingTimeInterval(Self.horizon) else {
            throw ConciergeError(
                .invalidInput, code: "invalid_pickup_time",
                message: "The pickup time is more than a year ahead. Choose an earlier time.")
        }
        async let originLookup = place(originPlaceId, role: "pickup")
        async let destinationLookup = place(destinationPlaceId, role: "destination")
        let (origin, destination) = try await (originLookup, destinationLookup)
        let route: RouteEstimate
        do {
            route = try await routes.route(from: origin, to: destination, departure: pickup)
        } catch let error as ConciergeError where error.code == "route_failed" {
            // The seed's error table: 502 "route calculation failed", which its app maps to
            // `routeCalculationFailed` and answers with "check the locations".
            throw ConciergeError(.upstreamFailed, code: "route_failed", message: error.message)
        }
        let quote = calculator.quote(
            distanceMeters: route.distanceMeters, durationSeconds: route.durationSeconds, pickup: pickup,
            pickupKind: origin.kind)
        return RideQuote(origin: origin, destination: destination, route: route, pickup: pickup, quote: quote)
    }

    private func place(_ id: String, role: String) async throws -> PlaceDetails {
        let trimmed = id.trimmed
        guard !trimmed.isEmpty, trimmed.count <= 300,
            let details = try await places.details(placeId: trimmed, sessionToken: nil)
        else {
            throw ConciergeError(
                .invalidInput, code: "invalid_place",
                message: "The \(role) place '\(id.prefix(60))' is unknown. Pick a place from the suggestions.")
        }
        return details
    }
}
