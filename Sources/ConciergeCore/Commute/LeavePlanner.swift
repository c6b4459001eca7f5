public import Foundation

/// Finds the latest departure `d` with `d + travel(d) + weather + personal bias + margin ≤
/// arrival`, where travel comes per 15-minute bucket from `TravelTimeLookup`, weather minutes
/// from `WeatherPenaltyTable`, and the margin is what the on-time target needs beyond the
/// buffer given the spread of the person's errors.
public struct LeavePlanner: Sendable {
    public struct Request: Sendable {
        public var origin: Coordinate
        public var destination: Coordinate
        public var arriveBy: Date
        public var bufferMinutes: Int
        public var onTimeTarget: Double
        /// Observed minus expected minutes of the trip's past runs, newest first.
        public var errors: [Double]
        /// The caller's own travel time (`/predict` with a route), used for every bucket.
        public var clientTravel: TravelTime?
        /// The caller's own weather; otherwise the provider's forecast (or unknown).
        public var clientWeather: WeatherConditions?

        public init(
            origin: Coordinate, destination: Coordinate, arriveBy: Date, bufferMinutes: Int, onTimeTarget: Double,
            errors: [Double] = [], clientTravel: TravelTime? = nil, clientWeather: WeatherConditions? = nil
        ) {
            self.origin = origin
            self.destination = destination
            self.arriveBy = arriveBy
            self.bufferMinutes = bufferMinutes
            self.onTimeTarget = onTimeTarget
            self.errors = errors
            self.clientTravel = clientTravel
            self.clientWeather = clientWeather
        }
    }

    public struct Plan: Sendable, Equatable {
        public let leaveAt: Date
        public let arriveBy: Date
        public let travel: TravelTime
        public let heuristic: Bool
        public let weather: WeatherConditions?
        public let weatherPenalties: [WeatherPenaltyTable.Penalty]
        public let bias: PersonalBias
        /// Minutes beyond the buffer that the on-time target needs.
        public let marginMinutes: Int
        public let bufferMinutes: Int
        public let onTimeProbability: Double
        public let confidence: Double
        public let computedAt: Date
        public let validUntil: Date

        public var travelMinutes: Int { Int((Double(travel.durationSeconds) / 60).rounded()) }
        public var weatherMinutes: Int { weatherPenalties.reduce(0) { $0 + $1.minutes } }
        public var personalMinutes: Int { Int(bias.minutes.rounded()) + marginMinutes }
    }

    let travel: TravelTimeLookup
    let weather: (any WeatherProvider)?
    let table: WeatherPenaltyTable
    let clock: any TimeSource
    private let forecasts: BucketCache<WeatherConditions?>

    public init(
        travel: TravelTimeLookup, weather: (any WeatherProvider)?, table: WeatherPenaltyTable = .standard,
        clock: any TimeSource
    ) {
        self.travel = travel
        self.weather = weather
        self.table = table
        self.clock = clock
        self.forecasts = BucketCache(lifetime: 1800, capacity: 20_000)
    }

    /// At most this many buckets are tried (a day's worth of quarter hours).
    static let maximumSteps = 96

    public func plan(_ request: Request) async throws -> Plan {
        let bucket = TravelTimeLookup.bucketSeconds
        var start = TravelTimeLookup.bucketStart(request.arriveBy.addingTimeInterval(-60))
        var visited: Set<Date> = []
        var best: (Plan, latest: Date)?
        for _ in 0..<Self.maximumSteps {
            visited.insert(start)
            let candidate = try await evaluate(request, bucket: start)
            best = candidate
            let latest = candidate.latest
            if latest < start {
                // Too late even at the bucket's start: jump to the bucket the answer points at.
                let next = TravelTimeLookup.bucketStart(latest)
                start = visited.contains(next) ? start.addingTimeInterval(-bucket) : next
            } else if latest >= start.addingTimeInterval(bucket) {
                // Leaving in a later bucket works too (traffic eases later): go forward once.
                let next = start.addingTimeInterval(bucket)
                if visited.contains(next) || next > request.arriveBy { break }
                start = next
            } else {
                break
            }
        }
        guard let (plan, latest) = best else { throw ConciergeError.routeFailed("no departure time was found.") }
        let clamped = min(latest, start.addingTimeInterval(bucket - 60))
        let leaveAt = Date(timeIntervalSince1970: (clamped.timeIntervalSince1970 / 60).rounded(.down) * 60)
        return Plan(
            leaveAt: leaveAt, arriveBy: plan.arriveBy, travel: plan.travel, heuristic: plan.heuristic,
            weather: plan.weather, weatherPenalties: plan.weatherPenalties, bias: plan.bias,
            marginMinutes: plan.marginMinutes, bufferMinutes: plan.bufferMinutes,
            onTimeProbability: plan.onTimeProbability, confidence: plan.confidence, computedAt: plan.computedAt,
            validUntil: leaveAt.timeIntervalSince(plan.computedAt) < 3600
                ? plan.computedAt.addingTimeInterval(300) : plan.computedAt.addingTimeInterval(900))
    }

    /// The plan if the person left in the bucket starting at `start`, and the latest departure
    /// it allows.
    private func evaluate(_ request: Request, bucket start: Date) async throws -> (Plan, latest: Date) {
        let answer: TravelTimeLookup.Answer
        if let client = request.clientTravel {
            answer = .init(travel: client, heuristic: false)
        } else {
            answer = try await travel.travel(from: request.origin, to: request.destination, bucket: start)
        }
        let travelMinutes = Double(answer.travel.durationSeconds) / 60
        let conditions: WeatherConditions?
        if let client = request.clientWeather {
            conditions = client
        } else {
            conditions = await forecast(request, at: start)
        }
        let penalties = conditions.map { table.penalties(for: $0, travelMinutes: travelMinutes) } ?? []
        let weatherMinutes = Double(penalties.reduce(0) { $0 + $1.minutes })
        let bias = PersonalBias.learn(errors: request.errors, travelMinutes: travelMinutes)
        // Unknown weather and heuristic travel times make the person's spread wider.
        var spread = bias.spreadMinutes
        if answer.heuristic { spread *= 1.25 }
        if conditions == nil { spread *= 1.05 }
        let z = NormalDistribution.quantile(request.onTimeTarget)
        let margin = max(0, Int((z * spread - Double(request.bufferMinutes)).rounded(.up)))
        let slack = Double(request.bufferMinutes + margin)
        let probability = NormalDistribution.cdf(slack / spread)
        let total = travelMinutes + weatherMinutes + bias.minutes.rounded() + slack
        let latest = request.arriveBy.addingTimeInterval(-total * 60)
        let history = min(Double(bias.observations), 10) / 10
        var confidence = (answer.heuristic ? 0.55 : 0.85) * (0.75 + 0.25 * history)
        if conditions == nil { confidence -= 0.05 }
        let now = clock.now
        let plan = Plan(
            leaveAt: latest, arriveBy: request.arriveBy, travel: answer.travel, heuristic: answer.heuristic,
            weather: conditions, weatherPenalties: penalties, bias: bias, marginMinutes: margin,
            bufferMinutes: request.bufferMinutes, onTimeProbability: (probability * 1000).rounded() / 1000,
            confidence: (min(max(confidence, 0.05), 0.99) * 100).rounded() / 100, computedAt: now, validUntil: now)
        return (plan, latest)
    }

    /// The worse of the two end points' weather for the departure hour; unknown on failure.
    private func forecast(_ request: Request, at time: Date) async -> WeatherConditions? {
        guard let weather else { return nil }
        let hour = Date(timeIntervalSince1970: (time.timeIntervalSince1970 / 3600).rounded(.down) * 3600)
        var worst: WeatherConditions?
        for point in [request.origin, request.destination] {
            let key = "\(TravelTimeLookup.key(point))@\(Int(hour.timeIntervalSince1970))"
            let conditions: WeatherConditions?
            if let hit = forecasts.value(for: key, now: clock.now) {
                conditions = hit
            } else {
                guard let fetched = try? await weather.conditions(at: point, time: hour) else { continue }
                forecasts.store(fetched, for: key, now: clock.now)
                conditions = fetched
            }
            guard let conditions else { continue }
            if let current = worst {
                let score = { (c: WeatherConditions) in c.snowCm * 10 + c.precipitationMm }
                if score(conditions) > score(current) { worst = conditions }
            } else {
                worst = conditions
            }
        }
        return worst
    }
}
