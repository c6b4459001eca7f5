public import ConciergeCore
public import Foundation

/// The embedded routing default: a deterministic estimate from coordinates alone.
///
/// Distance is the great-circle distance times a road-detour factor. Duration uses an average
/// speed that grows with distance, because short trips are mostly town streets and long ones
/// mostly motorway, plus a fixed allowance for getting in and out of town at both ends.
public struct OfflineRouteEstimator: RouteProvider {
    /// Roads are longer than the straight line; 1.3 is the usual circuity of European road
    /// networks for trips of a few to a few hundred kilometres.
    public static let detourFactor = 1.3
    /// Average speed of very short (town) trips, km/h.
    public static let townSpeed = 30.0
    /// Average speed the longest trips approach (mostly motorway, with traffic), km/h.
    public static let motorwaySpeed = 95.0
    /// Road distance at which the average speed is halfway between the two, km.
    public static let halfSpeedDistance = 25.0
    /// Fixed minutes for leaving the pickup and reaching the door at the destination.
    public static let terminalMinutes = 4.0
    /// Beyond this road distance we do not offer a ride.
    public static let maximumKilometers = 1000.0
    /// Closer than this, origin and destination are the same place.
    public static let minimumKilometers = 0.2

    public init() {}

    public func route(from origin: PlaceDetails, to destination: PlaceDetails, departure: Date) async throws
        -> RouteEstimate
    {
        try estimate(from: origin, to: destination)
    }

    public func estimate(from origin: PlaceDetails, to destination: PlaceDetails) throws -> RouteEstimate {
        let straight = origin.coordinate.distanceKilometers(to: destination.coordinate)
        guard origin.placeId != destination.placeId, straight >= Self.minimumKilometers else {
            throw ConciergeError.routeFailed("the pickup and the destination are the same place.")
        }
        guard Self.continent(of: origin.timeZone) == Self.continent(of: destination.timeZone) else {
            throw ConciergeError.routeFailed("the pickup and the destination are on different continents.")
        }
        let road = straight * Self.detourFactor
        guard road <= Self.maximumKilometers else {
            throw ConciergeError.routeFailed("the trip would be longer than 1,000 km by road.")
        }
        // Speed rises smoothly from town speed towards motorway speed as trips get longer.
        let share = road / (road + Self.halfSpeedDistance)
        let speed = Self.townSpeed + (Self.motorwaySpeed - Self.townSpeed) * share
        let minutes = road / speed * 60 + Self.terminalMinutes
        return RouteEstimate(
            distanceMeters: Int((road * 1000).rounded()), durationSeconds: Int((minutes * 60).rounded()))
    }

    /// The continent part of an IANA zone ("Europe/Zurich" → "Europe"); the Atlantic islands
    /// and Istanbul-style edge cases are rare enough for an offline estimate.
    static func continent(of timeZone: String) -> Substring {
        timeZone.split(separator: "/").first ?? ""
    }
}
