public import Foundation

/// A driving route's length and time.
public struct RouteEstimate: Sendable, Equatable {
    public let distanceMeters: Int
    public let durationSeconds: Int

    public init(distanceMeters: Int, durationSeconds: Int) {
        self.distanceMeters = distanceMeters
        self.durationSeconds = durationSeconds
    }
}

/// Driving routes. Implementations: the offline estimator and Google Routes `computeRoutes`.
public protocol RouteProvider: Sendable {
    /// Throws `ConciergeError.routeFailed` when there is no drivable route.
    func route(from origin: PlaceDetails, to destination: PlaceDetails, departure: Date) async throws -> RouteEstimate
}

extension ConciergeError {
    /// No drivable route between two places (400 `route_failed`): the same place twice, places
    /// too far apart or on different continents. The places are the caller's choice, so this is
    /// their input to change, not a provider failure (a failing provider is 502 or 503).
    public static func routeFailed(_ reason: String) -> ConciergeError {
        ConciergeError(.invalidInput, code: "route_failed", message: "We could not find a driving route: \(reason)")
    }
}
