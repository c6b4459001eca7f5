/// How long one trip really took: the person's bias is learned from these.
public struct CommuteObservation: Codable, Sendable, Equatable, Hashable, Identifiable {
    public var id: String
    public var tripId: String
    public var departedAt: String
    public var arrivedAt: String
    public var travelMinutes: Double
    /// What the planner expected for that departure (travel and weather, no personal bias).
    public var expectedMinutes: Double
    public var createdAt: String

    public init(
        id: String, tripId: String, departedAt: String, arrivedAt: String, travelMinutes: Double,
        expectedMinutes: Double, createdAt: String
    ) {
        self.id = id
        self.tripId = tripId
        self.departedAt = departedAt
        self.arrivedAt = arrivedAt
        self.travelMinutes = travelMinutes
        self.expectedMinutes = expectedMinutes
        self.createdAt = createdAt
    }
}

/// `POST /commute/trips/{id}/observations`.
public struct CommuteObservationInput: Codable, Sendable, Equatable {
    public var departedAt: String
    public var arrivedAt: String

    public init(departedAt: String, arrivedAt: String) {
        self.departedAt = departedAt
        self.arrivedAt = arrivedAt
    }
}

/// `GET /commute/trips/{id}/observations`, newest first.
public struct CommuteObservationList: Codable, Sendable, Equatable {
    public var observations: [CommuteObservation]

    public init(observations: [CommuteObservation]) {
        self.observations = observations
    }
}
