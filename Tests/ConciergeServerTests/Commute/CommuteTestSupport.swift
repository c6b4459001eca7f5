import ConciergeCore
import ConciergeModels
import ConciergeTestSupport
import Foundation
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// Zurich HB to Winterthur (about 25 km by road), every weekday, arriving at 10:00 Zurich
/// time. The test clock starts on Friday 2027-01-15 at 09:00 Zurich time.
enum CommuteHTTP {
    static let tripBody = """
        {"name": "Office", "origin": {"latitude": 47.3779, "longitude": 8.5403, "label": "Zürich HB"},
         "destination": {"latitude": 47.4997, "longitude": 8.7241, "label": "Winterthur"},
         "arrivalTime": "10:00", "timeZone": "Europe/Zurich",
         "notify": {"leadMinutes": 10, "channels": ["push"]}}
        """

    static func body(_ fields: [String: Any]) throws -> String {
        var trip = try JSONSerialization.jsonObject(with: Data(tripBody.utf8)) as! [String: Any]
        for (key, value) in fields { trip[key] = value }
        return String(decoding: try JSONSerialization.data(withJSONObject: trip), as: UTF8.self)
    }

    /// A travel-time provider that always fails, as an unreachable router would.
    struct FailingRouter: TravelTimeProvider {
        let name = "google"
        func travelTime(from origin: Coordinate, to destination: Coordinate, departure: Date) async throws
            -> TravelTime
        {
            throw ConciergeError(.unavailable(retryAfterSeconds: nil), code: "google_failed", message: "time-out")
        }
    }

    /// A live router answering 40 minutes with traffic, 30 without.
    struct FixedRouter: TravelTimeProvider {
        let name = "google"
        func travelTime(from origin: Coordinate, to destination: Coordinate, departure: Date) async throws
            -> TravelTime
        {
            TravelTime(distanceMeters: 25_000, durationSeconds: 2400, typicalDurationSeconds: 1800, provider: name)
        }
    }

    /// Heavy snow everywhere.
    struct SnowyWeather: WeatherProvider {
        let name = "open-meteo"
        func conditions(at place: Coordinate, time: Date) async throws -> WeatherConditions? {
            WeatherConditions(summary: "Heavy snow", precipitationMm: 3, snowCm: 2, temperatureC: -2, visibilityKm: 5)
        }
    }
}

extension TestClientProtocol {
    /// A rides session: a Concierge session token of any kind signs in to commute.
    func commuteToken(phone: String = "+41791234567") async throws -> String {
        try await signIn(phone: phone).sessionToken
    }

    func createTrip(_ body: String = CommuteHTTP.tripBody, token: String) async throws -> CommuteTrip {
        let response = try await send(.post, "/commute/trips", json: body, token: token)
        guard response.status == .created else {
            throw TestFailure("create trip: \(response.status) \(String(buffer: response.body))")
        }
        return try response.decode(CommuteTrip.self)
    }
}
