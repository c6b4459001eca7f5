public import Foundation

/// A driving travel time for one departure time.
public struct TravelTime: Sendable, Equatable {
    public let distanceMeters: Int
    /// With the traffic expected at the departure time.
    public let durationSeconds: Int
    /// Without live traffic (the provider's static or typical time).
    public let typicalDurationSeconds: Int
    /// `google`, `mapbox`, `estimator`, `client`.
    public let provider: String

    public init(distanceMeters: Int, durationSeconds: Int, typicalDurationSeconds: Int, provider: String) {
        self.distanceMeters = distanceMeters
        self.durationSeconds = durationSeconds
        self.typicalDurationSeconds = typicalDurationSeconds
        self.provider = provider
    }
}

/// Traffic-aware driving times at a departure time: Google Routes, Mapbox driving-traffic, or
/// the offline estimator with its time-of-day profile. No provider offers driving "arrive by"
/// with traffic, so the planner asks for departure times and searches itself.
public protocol TravelTimeProvider: Sendable {
    /// `google`, `mapbox`, `estimator`.
    var name: String { get }
    /// Throws `ConciergeError.routeFailed` when there is no drivable route; anything else thrown
    /// is a provider failure, which the planner answers with its heuristic.
    func travelTime(from origin: Coordinate, to destination: Coordinate, departure: Date) async throws -> TravelTime
}

/// Hourly weather at a place: Weatherbit or Open-Meteo.
public protocol WeatherProvider: Sendable {
    var name: String { get }
    /// The conditions in the hour that contains `time`; nil when the forecast does not reach it.
    func conditions(at place: Coordinate, time: Date) async throws -> WeatherConditions?
}

/// What the weather penalty table reads.
public struct WeatherConditions: Sendable, Equatable {
    public var summary: String
    /// Millimetres in the hour (rain and melted snow).
    public var precipitationMm: Double
    /// Centimetres of fresh snow in the hour.
    public var snowCm: Double
    public var temperatureC: Double
    /// Kilometres, when known.
    public var visibilityKm: Double?

    public init(
        summary: String, precipitationMm: Double, snowCm: Double, temperatureC: Double, visibilityKm: Double? = nil
    ) {
        self.summary = summary
        self.precipitationMm = precipitationMm
        self.snowCm = snowCm
        self.temperatureC = temperatureC
        self.visibilityKm = visibilityKm
    }
}
