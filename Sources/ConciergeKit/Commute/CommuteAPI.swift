public import ConciergeModels
public import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The seed's names for the commute wire types, under `Commute.`.
public enum Commute {
    public typealias Trip = CommuteTrip
    public typealias Prediction = LeaveTimeRecommendation
    public typealias RouteInfo = CommuteRoute
    public typealias WeatherData = CommuteWeather

    /// The app's own settings for new trips.
    public struct UserPreferences: Codable, Sendable, Equatable {
        public var defaultBufferMinutes: Int
        public var notificationsEnabled: Bool
        public var leadMinutes: Int

        public init(defaultBufferMinutes: Int = 5, notificationsEnabled: Bool = true, leadMinutes: Int = 10) {
            self.defaultBufferMinutes = defaultBufferMinutes
            self.notificationsEnabled = notificationsEnabled
            self.leadMinutes = leadMinutes
        }
    }
}

/// Every `/commute` endpoint, with the session token the app holds (a Concierge session or a
/// Clerk session token).
///
/// ```swift
/// let api = CommuteAPI(client: .configured) { AuthenticationManager.shared.sessionToken }
/// let trips = try await api.trips()
/// ```
public struct CommuteAPI: Sendable {
    public let client: ConciergeClient
    public let token: @Sendable () -> String?

    public init(client: ConciergeClient, token: @escaping @Sendable () -> String?) {
        self.client = client
        self.token = token
    }

    public func trips() async throws(BookingError) -> [CommuteTrip] {
        try await client.send("GET", "commute/trips", token: token(), as: CommuteTripList.self).trips
    }

    public func createTrip(_ input: CommuteTripInput) async throws(BookingError) -> CommuteTrip {
        try await client.send("POST", "commute/trips", body: input, token: token())
    }

    public func trip(id: String) async throws(BookingError) -> CommuteTrip {
        try await client.send("GET", "commute/trips/\(id)", token: token())
    }

    public func updateTrip(id: String, _ input: CommuteTripInput) async throws(BookingError) -> CommuteTrip {
        try await client.send("PATCH", "commute/trips/\(id)", body: input, token: token())
    }

    public func deleteTrip(id: String) async throws(BookingError) {
        try await sendWithoutAnswer("DELETE", "commute/trips/\(id)")
    }

    /// `date` is the local day `YYYY-MM-DD`; nil for the next occurrence.
    public func recommendation(tripID: String, date: String? = nil) async throws(BookingError)
        -> LeaveTimeRecommendation
    {
        try await client.send(
            "GET", "commute/trips/\(tripID)/recommendation",
            query: date.map { [URLQueryItem(name: "date", value: $0)] } ?? [],
            token: token())
    }

    public func predict(_ request: PredictRequest) async throws(BookingError) -> LeaveTimeRecommendation {
        try await client.send("POST", "commute/predict", body: request, token: token())
    }

    public func observe(tripID: String, departedAt: Date, arrivedAt: Date) async throws(BookingError)
        -> CommuteObservation
    {
        try await client.send(
            "POST", "commute/trips/\(tripID)/observations",
            body: CommuteObservationInput(
                departedAt: WireDate.string(from: departedAt), arrivedAt: WireDate.string(from: arrivedAt)),
            token: token())
    }

    public func observations(tripID: String) async throws(BookingError) -> [CommuteObservation] {
        try await client.send(
            "GET", "commute/trips/\(tripID)/observations", token: token(), as: CommuteObservationList.self
        ).observations
    }

    public func registerDevice(token deviceToken: String, environment: String) async throws(BookingError)
        -> CommuteDevice
    {
        try await client.send(
            "POST", "commute/devices",
            body: CommuteDeviceInput(platform: "ios", token: deviceToken, environment: environment), token: token())
    }

    public func unregisterDevice(token deviceToken: String) async throws(BookingError) {
        try await sendWithoutAnswer("DELETE", "commute/devices/\(deviceToken)")
    }

    /// Hands the server the push token of the trip's Live Activity (each value of
    /// `Activity.pushTokenUpdates`, hex-encoded); the server then keeps the activity up to date
    /// in the trip's last hour and ends it after the arrival.
    ///
    /// ```swift
    /// for await data in activity.pushTokenUpdates {
    ///     let hex = data.map { String(format: "%02x", $0) }.joined()
    ///     _ = try await api.registerLiveActivity(tripID: trip.id, token: hex, environment: "production")
    /// }
    /// ```
    public func registerLiveActivity(tripID: String, token activityToken: String, environment: String)
        async throws(BookingError) -> CommuteLiveActivity
    {
        try await client.send(
            "PUT", "commute/trips/\(tripID)/live-activity",
            body: CommuteLiveActivityInput(token: activityToken, environment: environment), token: token())
    }

    /// Stops the server's updates to the trip's Live Activity (when the app ends it itself).
    public func unregisterLiveActivity(tripID: String) async throws(BookingError) {
        try await sendWithoutAnswer("DELETE", "commute/trips/\(tripID)/live-activity")
    }

    public func notifications() async throws(BookingError) -> [CommuteNotification] {
        try await client.send("GET", "commute/notifications", token: token(), as: CommuteNotificationList.self)
            .notifications
    }

    /// DELETEs answer 204 with no body, which the JSON path cannot decode.
    private func sendWithoutAnswer(_ method: String, _ path: String) async throws(BookingError) {
        var request = URLRequest(url: client.baseURL.appendingPathComponent(path))
        request.httpMethod = method
        if let token = token() { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await client.session.data(for: request)
        } catch {
            throw .networkError(error)
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard (200..<300).contains(status) else { throw ConciergeClient.error(status: status, body: data) }
    }
}
