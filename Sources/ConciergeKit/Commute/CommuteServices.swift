public import ConciergeModels
public import Foundation

/// The seed's trip storage, as a protocol so view models can be tested with a double.
public protocol TripStorageServiceProtocol: Sendable {
    func loadTrips() async throws -> [CommuteTrip]
    func save(_ input: CommuteTripInput, id: String?) async throws -> CommuteTrip
    func delete(id: String) async throws
}

/// Trips kept on the server, so every device of the person agrees.
public struct TripStorageService: TripStorageServiceProtocol {
    public let api: CommuteAPI

    public init(api: CommuteAPI) {
        self.api = api
    }

    public func loadTrips() async throws -> [CommuteTrip] { try await api.trips() }

    /// Creates the trip, or changes the fields sent when `id` is given.
    public func save(_ input: CommuteTripInput, id: String? = nil) async throws -> CommuteTrip {
        if let id { return try await api.updateTrip(id: id, input) }
        return try await api.createTrip(input)
    }

    public func delete(id: String) async throws { try await api.deleteTrip(id: id) }
}

/// The seed's prediction flow: the app's own route and weather snapshot go to `/predict`.
public protocol PredictionEngineProtocol: Sendable {
    func recommendation(
        from origin: CommutePlace, to destination: CommutePlace, arriveBy: Date, route: PredictRoute?,
        weather: CommuteWeather?, bufferMinutes: Int
    ) async -> LeaveTimeRecommendation
}

/// Asks the server; when the server cannot be reached (or fails), answers on the device with
/// the heuristic — free flow from the route or the straight line, a rush-hour factor, the
/// buffer — marked `source: "heuristic"` with a low confidence. It never fails.
public struct PredictionEngine: PredictionEngineProtocol {
    public let api: CommuteAPI
    private let now: @Sendable () -> Date

    public init(api: CommuteAPI, now: @escaping @Sendable () -> Date = { Date() }) {
        self.api = api
        self.now = now
    }

    public func recommendation(
        from origin: CommutePlace, to destination: CommutePlace, arriveBy: Date, route: PredictRoute? = nil,
        weather: CommuteWeather? = nil, bufferMinutes: Int = 5
    ) async -> LeaveTimeRecommendation {
        let request = PredictRequest(
            origin: origin, destination: destination, arriveBy: WireDate.string(from: arriveBy), route: route,
            weather: weather, bufferMinutes: bufferMinutes)
        do {
            return try await api.predict(request)
        } catch {
            return Self.heuristic(request, arriveBy: arriveBy, now: now())
        }
    }

    /// The on-device fallback: 1.3 × the straight line at 45 km/h (or the app's route),
    /// × 1.3 in weekday rush hours by the device's clock, plus the buffer and 10 % margin.
    public static func heuristic(_ request: PredictRequest, arriveBy: Date, now: Date) -> LeaveTimeRecommendation {
        let straight = Self.kilometres(request.origin, request.destination)
        let distance = request.route?.distanceKm ?? straight * 1.3
        let free = request.route?.typicalDurationMinutes ?? request.route?.durationMinutes ?? distance / 45 * 60 + 4
        let hour = Calendar.current.component(.hour, from: arriveBy)
        let weekday = Calendar.current.component(.weekday, from: arriveBy)
        let rush = (2...6).contains(weekday) && ((7...9).contains(hour) || (16...18).contains(hour))
        let travel = request.route?.durationMinutes ?? free * (rush ? 1.3 : 1.0)
        let buffer = request.bufferMinutes ?? 5
        let margin = Int((travel * 0.1).rounded(.up))
        let total = Int(travel.rounded(.up)) + buffer + margin
        let leave = arriveBy.addingTimeInterval(-Double(total) * 60)
        var factors = [
            RecommendationFactor(code: "margin", minutes: margin, label: "Margin (estimated on this device)")
        ]
        if buffer > 0 { factors.append(RecommendationFactor(code: "buffer", minutes: buffer, label: "Your buffer")) }
        return LeaveTimeRecommendation(
            tripId: nil, arriveBy: request.arriveBy, leaveAt: WireDate.string(from: leave),
            travelMinutes: Int(travel.rounded()), bufferMinutes: buffer, weatherMinutes: 0, personalMinutes: margin,
            onTimeProbability: 0.8, confidence: 0.3, source: "heuristic",
            route: CommuteRoute(
                distanceKm: (distance * 10).rounded() / 10, durationMinutes: (travel * 10).rounded() / 10,
                typicalDurationMinutes: (free * 10).rounded() / 10, provider: "client"),
            weather: request.weather, factors: factors, computedAt: WireDate.string(from: now),
            validUntil: WireDate.string(from: now.addingTimeInterval(300)))
    }

    static func kilometres(_ a: CommutePlace, _ b: CommutePlace) -> Double {
        let radians = Double.pi / 180
        let dLat = (b.latitude - a.latitude) * radians
        let dLon = (b.longitude - a.longitude) * radians
        let h =
            sin(dLat / 2) * sin(dLat / 2) + cos(a.latitude * radians) * cos(b.latitude * radians) * sin(dLon / 2)
            * sin(dLon / 2)
        return 6371 * 2 * atan2(h.squareRoot(), (1 - h).squareRoot())
    }
}
