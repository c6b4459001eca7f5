public import ConciergeCore
public import Foundation
public import Logging

/// Driving distance and time from Google Routes API `computeRoutes`:
/// `POST {base}/directions/v2:computeRoutes` with the field mask
/// `routes.distanceMeters,routes.duration` (required by Google; nothing else is billed or sent).
///
/// Waypoints are sent as `{"placeId": …}` for Google place ids, which routes from the entrance
/// Google knows, and as `{"location": {"latLng": …}}` for anything else (the gazetteer's `gz_`
/// ids). The request asks for `DRIVE` with `TRAFFIC_AWARE` routing, so `duration` accounts for
/// the expected traffic at `departureTime`.
///
/// The call changes nothing, so it is retried once on a time-out, a 429 or a 5xx (see
/// `GoogleMapsEndpoint`). Errors follow `GoogleErrorMapping`; an empty answer is
/// `ConciergeError.routeFailed`.
public struct GoogleRoutesClient: RouteProvider {
    public static let defaultBaseURL = "https://routes.googleapis.com"
    static let fieldMask = "routes.distanceMeters,routes.duration"
    /// Departures closer to now than this are sent without `departureTime` (Google then uses
    /// "now"): Google rejects a departure in the past for driving, and one a few seconds ahead
    /// can be in the past by the time it arrives there.
    static let departureTimeMargin: TimeInterval = 60

    private let endpoint: GoogleMapsEndpoint
    private let baseURL: String
    private let clock: any TimeSource
    private var logger: Logger { endpoint.logger }

    /// - Parameters:
    ///   - clock: decides whether a departure is still in the future.
    ///   - baseURL: injectable for tests against a local stub server.
    ///   - timeout: per attempt; a person is waiting on a price.
    ///   - retryBackoff: the pause before the single retry; tests pass zero.
    public init(
        key: GoogleMapsKey,
        clock: any TimeSource = SystemTimeSource(),
        transport: any ProviderHTTPTransport = AsyncHTTPClientTransport(),
        baseURL: String = GoogleRoutesClient.defaultBaseURL,
        timeout: Duration = .seconds(3),
        retryBackoff: Duration = .milliseconds(200),
        logger: Logger = Logger(label: "concierge.providers.google")
    ) {
        self.endpoint = GoogleMapsEndpoint(
            key: key, transport: transport, timeout: timeout, retryBackoff: retryBackoff, service: .routes,
            logger: logger)
        self.baseURL = GoogleMapsEndpoint.trimmed(baseURL)
        self.clock = clock
    }

    public func route(from origin: PlaceDetails, to destination: PlaceDetails, departure: Date) async throws
        -> RouteEstimate
    {
        let body = ComputeRoutesRequest(
            origin: Waypoint(origin),
            destination: Waypoint(destination),
            travelMode: "DRIVE",
            routingPreference: "TRAFFIC_AWARE",
            departureTime: departure.timeIntervalSince(clock.now) > Self.departureTimeMargin
                ? Self.rfc3339(departure) : nil
        )
        let request = endpoint.key.jsonPOST(
            url: baseURL + "/directions/v2:computeRoutes", fieldMask: Self.fieldMask,
            body: try Self.encoder.encode(body))
        let response = try await endpoint.send(request, operation: "computeRoutes")
        guard (200...299).contains(response.status) else {
            throw GoogleErrorMapping.failure(response, service: .routes, calling: "computeRoutes", logger: logger)
        }
        guard let decoded = try? JSONDecoder().decode(ComputeRoutesResponse.self, from: response.body) else {
            logger.error(
                "Google Routes computeRoutes answered with an unreadable body",
                metadata: ["http_status": "\(response.status)"])
            throw GoogleErrorMapping.unexpectedResponse(.routes)
        }
        // "If the array is empty, then it means no route could be found"; proto3 JSON leaves
        // out empty lists, so that usually arrives as `{}`.
        guard let route = decoded.routes?.first else {
            throw ConciergeError.routeFailed(
                "there is no drivable route between these places. Check the pickup and destination.")
        }
        // A zero distance or duration (same place twice) is left out by proto3 JSON too.
        guard let durationSeconds = Self.seconds(fromDuration: route.duration ?? "0s"),
            (route.distanceMeters ?? 0) >= 0
        else {
            logger.error(
                "Google Routes computeRoutes answered with an unreadable distance or duration",
                metadata: ["duration": "\(route.duration ?? "none")"])
            throw GoogleErrorMapping.unexpectedResponse(.routes)
        }
        return RouteEstimate(distanceMeters: route.distanceMeters ?? 0, durationSeconds: durationSeconds)
    }

    /// `google.protobuf.Duration` in proto3 JSON: decimal seconds with an `s` suffix, e.g.
    /// `"1520s"` or `"1520.5s"`; rounded to whole seconds. Nil for anything else, and for
    /// negative or absurd values, which a route cannot have.
    static func seconds(fromDuration text: String) -> Int? {
        guard text.hasSuffix("s") else { return nil }
        let number = text.dropLast()
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            let value = Double(number), value.isFinite, value >= 0, value < Double(Int32.max)
        else { return nil }
        return Int(value.rounded())
    }

    /// RFC 3339 in UTC with whole seconds, e.g. `2026-09-01T06:30:00Z`.
    static func rfc3339(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZone: .gmt))
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}

// MARK: wire types (proto3 JSON, lowerCamelCase; absent fields are default values)

private struct ComputeRoutesRequest: Encodable {
    let origin: Waypoint
    let destination: Waypoint
    let travelMode: String
    let routingPreference: String
    let departureTime: String?
}

/// One of `placeId` or `location`, never both (they are a oneof in `waypoint.proto`).
private struct Waypoint: Encodable {
    struct Location: Encodable {
        let latLng: LatLng
    }

    struct LatLng: Encodable {
        let latitude: Double
        let longitude: Double
    }

    let placeId: String?
    let location: Location?

    /// Google place ids go as ids; the gazetteer's (`gz_…`) mean nothing to Google, so those
    /// places go by their coordinates.
    init(_ place: PlaceDetails) {
        if !place.placeId.isEmpty && !place.placeId.hasPrefix("gz_") {
            self.placeId = place.placeId
            self.location = nil
        } else {
            self.placeId = nil
            self.location = Location(
                latLng: LatLng(latitude: place.coordinate.latitude, longitude: place.coordinate.longitude))
        }
    }
}

private struct ComputeRoutesResponse: Decodable {
    struct Route: Decodable {
        let distanceMeters: Int?
        let duration: String?
    }

    let routes: [Route]?
}
