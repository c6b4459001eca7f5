public import ConciergeCore
public import Foundation

/// The offline default and the heuristic: the route estimator's free-flow time from
/// coordinates alone, times the time-of-day traffic profile (weekday rush hours slower).
public struct OfflineTravelTimes: TravelTimeProvider {
    public let name = "estimator"
    private let estimator = OfflineRouteEstimator()
    /// The zone whose clock the rush hours follow; the trip's own zone in practice.
    private let timeZone: @Sendable (Coordinate) -> TimeZone

    public init(
        timeZone: @escaping @Sendable (Coordinate) -> TimeZone = { _ in TimeZone(identifier: "Europe/Zurich")! }
    ) {
        self.timeZone = timeZone
    }

    public func travelTime(from origin: Coordinate, to destination: Coordinate, departure: Date) async throws
        -> TravelTime
    {
        func place(_ point: Coordinate, _ id: String) -> PlaceDetails {
            PlaceDetails(
                placeId: id, name: id, formattedAddress: id, coordinate: point, kind: .address,
                timeZone: "Europe/Zurich")
        }
        let free = try estimator.estimate(from: place(origin, "origin"), to: place(destination, "destination"))
        let factor = TrafficProfile.factor(at: departure, timeZone: timeZone(origin))
        return TravelTime(
            distanceMeters: free.distanceMeters,
            durationSeconds: Int((Double(free.durationSeconds) * factor).rounded()),
            // The profile is the typical traffic: with no live data the two are the same.
            typicalDurationSeconds: Int((Double(free.durationSeconds) * factor).rounded()), provider: name)
    }

    /// Rush hours by the clock of the longitude's nominal zone: good enough where no zone is
    /// known (`/predict`), and trips pass their own.
    public static func solarZone(_ point: Coordinate) -> TimeZone {
        TimeZone(secondsFromGMT: Int((point.longitude / 15).rounded()) * 3600) ?? .gmt
    }
}
