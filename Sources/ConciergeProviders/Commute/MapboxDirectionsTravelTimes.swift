public import ConciergeCore
public import Foundation

/// Mapbox Directions v5 with the `mapbox/driving-traffic` profile and `depart_at` (the seed's
/// router): `duration` is the expected time with traffic, `duration_typical` the typical one.
/// A 200 whose `code` is not `Ok` (`NoRoute`, `NoSegment`) is "no route".
public struct MapboxDirectionsTravelTimes: TravelTimeProvider {
    public let name = "mapbox"
    public static let defaultBaseURL = "https://api.mapbox.com"

    private let accessToken: String
    private let transport: any ProviderHTTPTransport
    private let baseURL: String
    private let clock: any TimeSource
    private let timeout: Duration

    public init(
        accessToken: String, clock: any TimeSource, transport: any ProviderHTTPTransport = AsyncHTTPClientTransport(),
        baseURL: String = MapboxDirectionsTravelTimes.defaultBaseURL, timeout: Duration = .seconds(3)
    ) {
        self.accessToken = accessToken.trimmingCharacters(in: .whitespacesAndNewlines)
        self.transport = transport
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.clock = clock
        self.timeout = timeout
    }

    public func travelTime(from origin: Coordinate, to destination: Coordinate, departure: Date) async throws
        -> TravelTime
    {
        // Longitude first; UTC with an explicit Z (the no-offset form is read as origin-local).
        let coordinates = "\(origin.longitude),\(origin.latitude);\(destination.longitude),\(destination.latitude)"
        var query = [
            ("access_token", accessToken), ("alternatives", "false"), ("overview", "false"), ("steps", "false"),
        ]
        if departure.timeIntervalSince(clock.now) > 60 {
            query.append(("depart_at", departure.formatted(Date.ISO8601FormatStyle(timeZone: .gmt))))
        }
        let encoded = query.map { "\($0.0)=\(Self.encode($0.1))" }.joined(separator: "&")
        let url = "\(baseURL)/directions/v5/mapbox/driving-traffic/\(Self.encode(coordinates))?\(encoded)"
        let response = try await transport.send(
            ProviderHTTPRequest(method: "GET", url: url, headers: [("Accept", "application/json")]), timeout: timeout)
        let decoded = try? JSONDecoder().decode(Answer.self, from: response.body)
        guard (200...299).contains(response.status) else {
            throw CommuteProviderFailure.status(name, response.status, decoded?.message ?? decoded?.code ?? "")
        }
        guard let decoded else { throw CommuteProviderFailure.unreadable(name) }
        guard decoded.code == "Ok", let route = decoded.routes?.first else {
            throw ConciergeError.routeFailed("Mapbox found no drivable route (\(decoded.code ?? "no code")).")
        }
        return TravelTime(
            distanceMeters: Int(route.distance.rounded()), durationSeconds: Int(route.duration.rounded()),
            typicalDurationSeconds: Int((route.duration_typical ?? route.duration).rounded()), provider: name)
    }

    /// Percent-encoding for a path segment or query value (`;` and `,` kept readable where
    /// Mapbox's own examples keep them).
    static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~,;:")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    private struct Answer: Decodable {
        struct Route: Decodable {
            let duration: Double
            // swift-format-ignore: AlwaysUseLowerCamelCase
            let duration_typical: Double?
            let distance: Double
        }

        let code: String?
        let message: String?
        let routes: [Route]?
    }
}
