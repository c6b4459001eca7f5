import ConciergeCore
import ConciergeProviders
import Foundation
import Testing

/// Google Routes (TRAFFIC_AWARE_OPTIMAL with departureTime) and Mapbox Directions
/// (driving-traffic with depart_at) for the commute planner, against recorded answers through
/// the transport seam.
@Suite struct CommuteRouterAdapterTests {
    /// 2027-01-15T08:00:00Z.
    let clock = ManualTimeSource(Date(timeIntervalSince1970: 1_800_000_000))
    let amsterdam = Coordinate(latitude: 52.378901, longitude: 4.900272)
    let nassaukade = Coordinate(latitude: 52.365874, longitude: 4.884107)

    @Test func googleAsksForTrafficAwareOptimalAtTheDepartureAndReadsBothDurations() async throws {
        let transport = try RecordingTransport(status: 200, fixture: "commute_google_routes_traffic_200")
        let router = GoogleRoutesTravelTimes(
            key: GoogleMapsKey("EXAMPLE_KEY"), clock: clock, transport: transport, timeout: .seconds(2))
        let travel = try await router.travelTime(
            from: amsterdam, to: nassaukade, departure: clock.now.addingTimeInterval(1800))
        #expect(
            travel
                == TravelTime(
                    distanceMeters: 18342, durationSeconds: 1742, typicalDurationSeconds: 1315, provider: "google"))
        let request = try await transport.onlyRequest
        #expect(request.url == "https://routes.googleapis.com/directions/v2:computeRoutes")
        #expect(request.header("X-Goog-Api-Key") == "EXAMPLE_KEY")
        #expect(
            request.header("X-Goog-FieldMask")
                == "routes.distanceMeters,routes.duration,routes.staticDuration,fallbackInfo")
        let body = try JSONValue.parse(request.body)
        #expect(body["routingPreference"] == "TRAFFIC_AWARE_OPTIMAL")
        #expect(body["trafficModel"] == "BEST_GUESS")
        #expect(body["travelMode"] == "DRIVE")
        #expect(body["departureTime"] == "2027-01-15T08:30:00Z")
        #expect(body["origin"] == ["location": ["latLng": ["latitude": 52.378901, "longitude": 4.900272]]])
        #expect(await transport.timeouts == [.seconds(2)])
    }

    @Test func googleSendsNoPastDepartureAndReportsErrorsAndEmptyAnswers() async throws {
        let now = try RecordingTransport(status: 200, fixture: "commute_google_routes_traffic_200")
        _ = try await GoogleRoutesTravelTimes(key: GoogleMapsKey("k"), clock: clock, transport: now)
            .travelTime(from: amsterdam, to: nassaukade, departure: clock.now.addingTimeInterval(-600))
        #expect(try JSONValue.parse(try await now.onlyRequest.body)["departureTime"] == nil)

        let refused = try RecordingTransport(status: 400, fixture: "commute_google_routes_past_400")
        await #expect(throws: ConciergeError.self) {
            try await GoogleRoutesTravelTimes(key: GoogleMapsKey("k"), clock: clock, transport: refused)
                .travelTime(from: amsterdam, to: nassaukade, departure: clock.now)
        }
        let empty = RecordingTransport(status: 200, body: Data("{}".utf8))
        do {
            _ = try await GoogleRoutesTravelTimes(key: GoogleMapsKey("k"), clock: clock, transport: empty)
                .travelTime(from: amsterdam, to: nassaukade, departure: clock.now)
            Issue.record("an empty answer is no route")
        } catch let error as ConciergeError {
            #expect(error.code == "route_failed")
        }
    }

    @Test func mapboxAsksDrivingTrafficWithDepartAtLongitudeFirst() async throws {
        let transport = try RecordingTransport(status: 200, fixture: "commute_mapbox_driving_traffic_typical_200")
        let router = MapboxDirectionsTravelTimes(accessToken: "pk.EXAMPLE_TOKEN", clock: clock, transport: transport)
        let travel = try await router.travelTime(
            from: amsterdam, to: nassaukade, departure: clock.now.addingTimeInterval(5400))
        #expect(
            travel
                == TravelTime(distanceMeters: 1161, durationSeconds: 37, typicalDurationSeconds: 47, provider: "mapbox")
        )
        let request = try await transport.onlyRequest
        #expect(request.method == "GET")
        #expect(
            request.url
                == "https://api.mapbox.com/directions/v5/mapbox/driving-traffic/4.900272,52.378901;4.884107,52.365874?access_token=pk.EXAMPLE_TOKEN&alternatives=false&overview=false&steps=false&depart_at=2027-01-15T09:30:00Z"
        )
    }

    @Test func mapboxNoRouteAndInvalidInputAreFailures() async throws {
        let noRoute = try RecordingTransport(status: 200, fixture: "commute_mapbox_no_route_200")
        do {
            _ = try await MapboxDirectionsTravelTimes(accessToken: "pk.x", clock: clock, transport: noRoute)
                .travelTime(from: amsterdam, to: nassaukade, departure: clock.now)
            Issue.record("NoRoute is no route")
        } catch let error as ConciergeError {
            #expect(error.code == "route_failed")
        }
        let invalid = try RecordingTransport(status: 422, fixture: "commute_mapbox_invalid_input_422")
        do {
            _ = try await MapboxDirectionsTravelTimes(accessToken: "pk.x", clock: clock, transport: invalid)
                .travelTime(from: amsterdam, to: nassaukade, departure: clock.now)
            Issue.record("422 is a failure")
        } catch let error as ConciergeError {
            #expect(error.code == "mapbox_failed" && error.message.contains("depart_at is not supported"))
        }
    }

    @Test func theOfflineEstimatorIsSlowerInWeekdayRushHours() async throws {
        let zurich = TimeZone(identifier: "Europe/Zurich")!
        let estimator = OfflineTravelTimes { _ in zurich }
        let hb = Coordinate(latitude: 47.3779, longitude: 8.5403)
        let winterthur = Coordinate(latitude: 47.4997, longitude: 8.7241)
        // Friday 2027-01-15: 07:45, 12:00 and 03:00 Zurich time; Saturday 07:45.
        let rush = try await estimator.travelTime(
            from: hb, to: winterthur, departure: Date(timeIntervalSince1970: 1_799_995_500))
        let noon = try await estimator.travelTime(
            from: hb, to: winterthur, departure: Date(timeIntervalSince1970: 1_800_010_800))
        let night = try await estimator.travelTime(
            from: hb, to: winterthur, departure: Date(timeIntervalSince1970: 1_799_978_400))
        let saturday = try await estimator.travelTime(
            from: hb, to: winterthur, departure: Date(timeIntervalSince1970: 1_800_081_900))
        #expect(rush.durationSeconds > noon.durationSeconds && noon.durationSeconds > night.durationSeconds)
        #expect(Double(rush.durationSeconds) / Double(night.durationSeconds) > 1.4)
        #expect(saturday.durationSeconds < rush.durationSeconds)
        #expect(rush.distanceMeters == night.distanceMeters)
    }
}
