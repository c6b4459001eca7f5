import ConciergeCore
import ConciergeProviders
import Foundation
import Testing

/// Google Routes `computeRoutes`, against recorded answers through the transport seam.
@Suite struct GoogleRoutesClientTests {
    private typealias Values = GoogleTestValues

    /// 2027-01-15T08:00:00Z.
    private let clock = ManualTimeSource(Date(timeIntervalSince1970: 1_800_000_000))

    @Test func routePostsPlaceIdsDriveTrafficAwareAndFutureDeparture() async throws {
        let transport = try RecordingTransport(status: 200, fixture: "google_routes_200")

        _ = try await Values.routes(transport, clock: clock).route(
            from: Values.amsterdamCentraal, to: Values.schiphol, departure: clock.now.addingTimeInterval(3600))

        let request = try await transport.onlyRequest
        #expect(request.method == "POST")
        #expect(request.url == "https://routes.googleapis.com/directions/v2:computeRoutes")
        #expect(request.header("Content-Type") == "application/json")
        #expect(request.header("X-Goog-Api-Key") == Values.apiKey)
        #expect(request.header("X-Goog-FieldMask") == "routes.distanceMeters,routes.duration")
        let expected: JSONValue = [
            "origin": ["placeId": "ChIJVXealLU_xkcRja_At0z9AGY"],
            "destination": ["placeId": "ChIJLRb94DIJxkcRp5q0yT8z8ZE"],
            "travelMode": "DRIVE",
            "routingPreference": "TRAFFIC_AWARE",
            "departureTime": "2027-01-15T09:00:00Z",
        ]
        #expect(try JSONValue.parse(request.body) == expected)
        #expect(await transport.timeouts == [.seconds(3)])
    }

    @Test func routeSendsGazetteerPlacesByCoordinates() async throws {
        let transport = try RecordingTransport(status: 200, fixture: "google_routes_200")

        _ = try await Values.routes(transport, clock: clock).route(
            from: Values.zurichHB, to: Values.schiphol, departure: clock.now.addingTimeInterval(86_400))

        let body = try JSONValue.parse(try await transport.onlyRequest.body)
        #expect(body["origin"] == ["location": ["latLng": ["latitude": 47.3779, "longitude": 8.5403]]])
        #expect(body["destination"] == ["placeId": "ChIJLRb94DIJxkcRp5q0yT8z8ZE"])
        #expect(body["departureTime"] == "2027-01-16T08:00:00Z")
    }

    @Test(arguments: [-3600.0, 0, 30])
    func routeOmitsDepartureTimeThatIsNotSafelyInTheFuture(offset: TimeInterval) async throws {
        // Google rejects a past departure time for driving; without one it routes for "now".
        let transport = try RecordingTransport(status: 200, fixture: "google_routes_200")

        _ = try await Values.routes(transport, clock: clock).route(
            from: Values.amsterdamCentraal, to: Values.schiphol, departure: clock.now.addingTimeInterval(offset))

        let body = try JSONValue.parse(try await transport.onlyRequest.body)
        #expect(body["departureTime"] == nil)
        #expect(body["travelMode"] == "DRIVE")
    }

    @Test func routeParsesDistanceAndDuration() async throws {
        let transport = try RecordingTransport(status: 200, fixture: "google_routes_200")

        let estimate = try await Values.routes(transport, clock: clock).route(
            from: Values.amsterdamCentraal, to: Values.schiphol, departure: clock.now)

        #expect(estimate == RouteEstimate(distanceMeters: 18342, durationSeconds: 1520))
    }

    @Test(arguments: [("1520.5s", 1521), ("1520.4s", 1520), ("0s", 0), ("59.999999999s", 60)])
    func routeParsesFractionalDurations(duration: String, seconds: Int) async throws {
        let body = Data(#"{"routes":[{"distanceMeters":100,"duration":"\#(duration)"}]}"#.utf8)

        let estimate = try await Values.routes(RecordingTransport(status: 200, body: body), clock: clock).route(
            from: Values.amsterdamCentraal, to: Values.schiphol, departure: clock.now)

        #expect(estimate == RouteEstimate(distanceMeters: 100, durationSeconds: seconds))
    }

    @Test func routeWithZeroValuesLeftOutIsZero() async throws {
        // Same place twice: proto3 JSON leaves out the zero distance and duration.
        let body = Data(#"{"routes":[{}]}"#.utf8)

        let estimate = try await Values.routes(RecordingTransport(status: 200, body: body), clock: clock).route(
            from: Values.schiphol, to: Values.schiphol, departure: clock.now)

        #expect(estimate == RouteEstimate(distanceMeters: 0, durationSeconds: 0))
    }

    @Test(arguments: [#"{}"#, #"{"routes":[]}"#])
    func routeWithNoRoutesIsRouteFailed(body: String) async throws {
        let transport = RecordingTransport(status: 200, body: Data(body.utf8))

        let error = await #expect(throws: ConciergeError.self) {
            try await Values.routes(transport, clock: clock).route(
                from: Values.zurichHB, to: Values.schiphol, departure: clock.now)
        }

        #expect(error?.category == .invalidInput)
        #expect(error?.code == "route_failed")
        #expect(error?.message.contains("no drivable route between these places") == true)
        #expect(await transport.requests.count == 1)
    }

    @Test func routeRecordedEmptyFixtureIsRouteFailed() async throws {
        let transport = try RecordingTransport(status: 200, fixture: "google_routes_empty_200")

        let error = await #expect(throws: ConciergeError.self) {
            try await Values.routes(transport, clock: clock).route(
                from: Values.zurichHB, to: Values.schiphol, departure: clock.now)
        }

        #expect(error?.code == "route_failed")
    }

    @Test(arguments: ["1520", "abc s", "-5s", "s", "1e3s", "PT25M"])
    func routeWithUnreadableDurationIsUpstreamFailure(duration: String) async throws {
        let body = Data(#"{"routes":[{"distanceMeters":100,"duration":"\#(duration)"}]}"#.utf8)

        let error = await #expect(throws: ConciergeError.self) {
            try await Values.routes(RecordingTransport(status: 200, body: body), clock: clock).route(
                from: Values.amsterdamCentraal, to: Values.schiphol, departure: clock.now)
        }

        #expect(error?.category == .upstreamFailed)
        #expect(error?.code == "route_failed")
    }

    @Test func routeBaseURLIsInjectable() async throws {
        let transport = try RecordingTransport(status: 200, fixture: "google_routes_200")
        let client = GoogleRoutesClient(
            key: Values.key, clock: clock, transport: transport, baseURL: "http://127.0.0.1:9999", retryBackoff: .zero)

        _ = try await client.route(from: Values.amsterdamCentraal, to: Values.schiphol, departure: clock.now)

        #expect(try await transport.onlyRequest.url == "http://127.0.0.1:9999/directions/v2:computeRoutes")
    }
}
