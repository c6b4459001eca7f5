/// The route a recommendation was computed on.
public struct CommuteRoute: Codable, Sendable, Equatable, Hashable {
    public var distanceKm: Double
    /// With the traffic expected at the departure time.
    public var durationMinutes: Double
    /// Without live traffic (the provider's typical or free-flow time).
    public var typicalDurationMinutes: Double
    /// `google`, `mapbox`, `estimator` or `client` (the caller's own route in `/predict`).
    public var provider: String

    public init(distanceKm: Double, durationMinutes: Double, typicalDurationMinutes: Double, provider: String) {
        self.distanceKm = distanceKm
        self.durationMinutes = durationMinutes
        self.typicalDurationMinutes = typicalDurationMinutes
        self.provider = provider
    }
}

/// The weather at the departure hour, as far as it matters for driving.
public struct CommuteWeather: Codable, Sendable, Equatable, Hashable {
    public var summary: String
    /// Millimetres of rain (and melted snow) in the hour.
    public var precipitationMm: Double
    /// Centimetres of fresh snow in the hour.
    public var snowCm: Double
    public var temperatureC: Double
    /// Kilometres; nil when the provider does not say.
    public var visibilityKm: Double?

    public init(
        summary: String, precipitationMm: Double, snowCm: Double, temperatureC: Double, visibilityKm: Double? = nil
    ) {
        self.summary = summary
        self.precipitationMm = precipitationMm
        self.snowCm = snowCm
        self.temperatureC = temperatureC
        self.visibilityKm = visibilityKm
    }
}

/// One reason the leave time is where it is, e.g. `{"code": "rain", "minutes": 3, "label": …}`.
public struct RecommendationFactor: Codable, Sendable, Equatable, Hashable {
    public var code: String
    public var minutes: Int
    public var label: String

    public init(code: String, minutes: Int, label: String) {
        self.code = code
        self.minutes = minutes
        self.label = label
    }
}

/// When to leave to arrive by `arriveBy`, and why.
public struct LeaveTimeRecommendation: Codable, Sendable, Equatable, Hashable {
    /// Nil for `/commute/predict`, which has no trip.
    public var tripId: String?
    public var arriveBy: String
    public var leaveAt: String
    public var travelMinutes: Int
    public var bufferMinutes: Int
    public var weatherMinutes: Int
    /// The person's learned bias plus the margin their on-time target needs.
    public var personalMinutes: Int
    public var onTimeProbability: Double
    public var confidence: Double
    /// `traffic` (a live provider's travel time) or `heuristic` (the estimator's).
    public var source: String
    public var route: CommuteRoute
    public var weather: CommuteWeather?
    public var factors: [RecommendationFactor]
    public var computedAt: String
    public var validUntil: String

    public init(
        tripId: String?, arriveBy: String, leaveAt: String, travelMinutes: Int, bufferMinutes: Int,
        weatherMinutes: Int, personalMinutes: Int, onTimeProbability: Double, confidence: Double, source: String,
        route: CommuteRoute, weather: CommuteWeather?, factors: [RecommendationFactor], computedAt: String,
        validUntil: String
    ) {
        self.tripId = tripId
        self.arriveBy = arriveBy
        self.leaveAt = leaveAt
        self.travelMinutes = travelMinutes
        self.bufferMinutes = bufferMinutes
        self.weatherMinutes = weatherMinutes
        self.personalMinutes = personalMinutes
        self.onTimeProbability = onTimeProbability
        self.confidence = confidence
        self.source = source
        self.route = route
        self.weather = weather
        self.factors = factors
        self.computedAt = computedAt
        self.validUntil = validUntil
    }

    /// `weather` is sent as `null` when unknown (the contract's `{…}|null`); `tripId` is left
    /// out for `/predict`, which has no trip.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(tripId, forKey: .tripId)
        try container.encode(arriveBy, forKey: .arriveBy)
        try container.encode(leaveAt, forKey: .leaveAt)
        try container.encode(travelMinutes, forKey: .travelMinutes)
        try container.encode(bufferMinutes, forKey: .bufferMinutes)
        try container.encode(weatherMinutes, forKey: .weatherMinutes)
        try container.encode(personalMinutes, forKey: .personalMinutes)
        try container.encode(onTimeProbability, forKey: .onTimeProbability)
        try container.encode(confidence, forKey: .confidence)
        try container.encode(source, forKey: .source)
        try container.encode(route, forKey: .route)
        try container.encode(weather, forKey: .weather)
        try container.encode(factors, forKey: .factors)
        try container.encode(computedAt, forKey: .computedAt)
        try container.encode(validUntil, forKey: .validUntil)
    }
}

/// `POST /commute/predict`: the seed's `/predict`. `route` and `weather` are the caller's own
/// snapshot (the seed's `TrafficWeatherMergeService`); when sent, the server uses them.
public struct PredictRequest: Codable, Sendable, Equatable {
    public var origin: CommutePlace
    public var destination: CommutePlace
    public var arriveBy: String
    public var route: PredictRoute?
    public var weather: CommuteWeather?
    /// Minutes of slack on top (default 5, 0–60).
    public var bufferMinutes: Int?

    public init(
        origin: CommutePlace, destination: CommutePlace, arriveBy: String, route: PredictRoute? = nil,
        weather: CommuteWeather? = nil, bufferMinutes: Int? = nil
    ) {
        self.origin = origin
        self.destination = destination
        self.arriveBy = arriveBy
        self.route = route
        self.weather = weather
        self.bufferMinutes = bufferMinutes
    }
}

/// The caller's route in `/predict`: the provider's travel time with traffic and, when known,
/// without.
public struct PredictRoute: Codable, Sendable, Equatable {
    public var distanceKm: Double
    public var durationMinutes: Double
    public var typicalDurationMinutes: Double?

    public init(distanceKm: Double, durationMinutes: Double, typicalDurationMinutes: Double? = nil) {
        self.distanceKm = distanceKm
        self.durationMinutes = durationMinutes
        self.typicalDurationMinutes = typicalDurationMinutes
    }
}
