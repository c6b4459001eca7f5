public import ConciergeCore
public import Foundation

/// Google Routes `computeRoutes` for commute planning: `DRIVE` with `TRAFFIC_AWARE_OPTIMAL`
/// (the routing preference that honours `trafficModel`) and `departureTime`, asking for both
/// `duration` (with traffic) and `staticDuration` (without). Departures less than a minute
/// ahead are sent without `departureTime` (Google refuses past ones for driving).
public struct GoogleRoutesTravelTimes: TravelTimeProvider {
    public let name = "google"
    static let fieldMask = "routes.distanceMeters,routes.duration,routes.staticDuration,fallbackInfo"

    private let key: GoogleMapsKey
    private let transport: any ProviderHTTPTransport
    private let baseURL: String
    private let clock: any TimeSource
    private let timeout: Duration
    private let trafficModel: String

    /// - Parameter trafficModel: `BEST_GUESS` (default), `PESSIMISTIC` or `OPTIMISTIC`.
    public init(
        key: GoogleMapsKey, clock: any TimeSource, transport: any ProviderHTTPTransport = AsyncHTTPClientTransport(),
        baseURL: String = GoogleRoutesClient.defaultBaseURL, timeout: Duration = .seconds(3),
        trafficModel: String = "BEST_GUESS"
    ) {
        self.key = key
        self.transport = transport
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.clock = clock
        self.timeout = timeout
        self.trafficModel = trafficModel
    }

    public func travelTime(from origin: Coordinate, to destination: Coordinate, departure: Date) async throws
        -> TravelTime
    {
        var body: [String: Any] = [
            "origin": Self.waypoint(origin), "destination": Self.waypoint(destination), "travelMode": "DRIVE",
            "routingPreference": "TRAFFIC_AWARE_OPTIMAL", "trafficModel": trafficModel,
        ]
        if departure.timeIntervalSince(clock.now) > 60 {
            body["departureTime"] = departure.formatted(Date.ISO8601FormatStyle(timeZone: .gmt))
        }
        let data = try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
        let request = key.jsonPOST(url: baseURL + "/directions/v2:computeRoutes", fieldMask: Self.fieldMask, body: data)
        let response = try await transport.send(request, timeout: timeout)
        guard (200...299).contains(response.status) else {
            throw CommuteProviderFailure.status(
                name, response.status, CommuteProviderFailure.excerpt(Array(response.body)))
        }
        guard let decoded = try? JSONDecoder().decode(Answer.self, from: response.body) else {
            throw CommuteProviderFailure.unreadable(name)
        }
        guard let route = decoded.routes?.first else {
            throw ConciergeError.routeFailed("Google found no drivable route.")
        }
        guard let duration = GoogleRoutesClient.seconds(fromDuration: route.duration ?? "0s"),
            let typical = GoogleRoutesClient.seconds(fromDuration: route.staticDuration ?? route.duration ?? "0s")
        else { throw CommuteProviderFailure.unreadable(name) }
        return TravelTime(
            distanceMeters: route.distanceMeters ?? 0, durationSeconds: duration, typicalDurationSeconds: typical,
            provider: name)
    }

    static func waypoint(_ point: Coordinate) -> [String: Any] {
        ["location": ["latLng": ["latitude": point.latitude, "longitude": point.longitude]]]
    }

    private struct Answer: Decodable {
        struct Route: Decodable {
            let distanceMeters: Int?
            let duration: String?
            let staticDuration: String?
        }

        let routes: [Route]?
    }
}
