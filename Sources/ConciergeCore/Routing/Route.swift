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
    /// No drivable route between two places (502 `route_failed`).
    public static func routeFailed(_ reason: String) -> ConciergeError {
        ConciergeError(.upstreamFailed, code: "route_failed", message: "We could not find a driving route: \(reason)")
    }
}
