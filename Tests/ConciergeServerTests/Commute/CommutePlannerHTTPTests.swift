import ConciergeCore
import ConciergeModels
import ConciergeTestSupport
import Foundation
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// The planner's sources over HTTP: the caller's own route and weather in `/predict`, a live
/// router, a failing router (heuristic, lower confidence, never a failed answer), snow.
@Suite struct CommutePlannerHTTPTests {
    static let places = """
        "origin": {"latitude": 47.3779, "longitude": 8.5403, "label": "Zürich HB"},
        "destination": {"latitude": 47.4997, "longitude": 8.7241, "label": "Winterthur"}
        """

    @Test func predictUsesTheCallersRouteAndWeather() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            let token = try await client.commuteToken()
            let dry = try await client.send(
                .post, "/commute/predict",
                json:
                    #"{\#(Self.places), "arriveBy": "2027-01-15T12:00:00Z", "route": {"distanceKm": 26.1, "durationMinutes": 31, "typicalDurationMinutes": 27}}"#,
                token: token)
            #expect(dry.status == .ok)
            let plan = try dry.decode(LeaveTimeRecommendation.self)
            #expect(plan.tripId == nil && plan.route.provider == "client" && plan.source == "traffic")
            #expect(
                plan.travelMinutes == 31 && plan.route.distanceKm == 26.1 && plan.route.typicalDurationMinutes == 27)
            #expect(plan.factors.contains(RecommendationFactor(code: "traffic", minutes: 4, label: "4 min of traffic")))
            #expect(!String(buffer: dry.body).contains("tripId"))

            let snowy = try await client.send(
                .post, "/commute/predict",
                json:
                    #"{\#(Self.places), "arriveBy": "2027-01-15T12:00:00Z", "route": {"distanceKm": 26.1, "durationMinutes": 31}, "weather": {"summary": "Heavy snow", "precipitationMm": 4, "snowCm": 2.5, "temperatureC": -3}}"#,
                token: token
            ).decode(LeaveTimeRecommendation.self)
            // Heavy snow: 40 % of 31 minutes, rounded up.
            #expect(snowy.weatherMinutes == 13 && snowy.weather?.summary == "Heavy snow")
            #expect(snowy.factors.contains { $0.code == "snow" && $0.minutes == 13 })
            let dryLeave = try #require(WireDate.date(from: plan.leaveAt))
            let snowyLeave = try #require(WireDate.date(from: snowy.leaveAt))
            // Earlier by the snow's minutes and any change in the margin (known weather narrows it).
            let extra = snowy.weatherMinutes + snowy.personalMinutes - plan.personalMinutes
            #expect(dryLeave.timeIntervalSince(snowyLeave) == Double(extra * 60) && extra >= 12)
        }
    }

    @Test func aLiveRouterAndWeatherAreUsedAndAFailingRouterFallsBackToTheHeuristic() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        let live = CommuteConfiguration.Override(
            travel: CommuteHTTP.FixedRouter(), weather: CommuteHTTP.SnowyWeather())
        let traffic = try await CommuteConfiguration.$override.withValue(live) {
            try await app.run { client in
                let token = try await client.commuteToken()
                let trip = try await client.createTrip(token: token)
                return try await client.send(.get, "/commute/trips/\(trip.id)/recommendation", token: token)
                    .decode(LeaveTimeRecommendation.self)
            }
        }
        #expect(traffic.source == "traffic" && traffic.route.provider == "google")
        #expect(traffic.travelMinutes == 40 && traffic.route.typicalDurationMinutes == 30)
        #expect(traffic.weatherMinutes == 16 && traffic.weather?.snowCm == 2)

        let failing = CommuteConfiguration.Override(travel: CommuteHTTP.FailingRouter())
        let fallback = try await CommuteConfiguration.$override.withValue(failing) {
            try await app.sibling().run { client in
                let token = try await client.commuteToken(phone: "+41791110003")
                let trip = try await client.createTrip(token: token)
                let response = try await client.send(.get, "/commute/trips/\(trip.id)/recommendation", token: token)
                #expect(response.status == .ok)
                return try response.decode(LeaveTimeRecommendation.self)
            }
        }
        #expect(fallback.source == "heuristic" && fallback.route.provider == "estimator")
        #expect(fallback.confidence < traffic.confidence)
        #expect(fallback.weather == nil)
    }
}
