import ConciergeCore
import Foundation

/// Simulated commuters over many weeks, to measure the planner against two baselines.
///
/// The hidden truth: each commuter's free-flow time, the weekday rush-hour profile, their own
/// driving habit (a multiplier), random incidents, rain and snow days and day-to-day noise.
/// The planner sees only what a deployment sees: a router's estimate (the profile with its
/// own error, half of any incident), a forecast that is right most days, and the commuter's
/// past observations. Baselines: a free-flow ETA and a typical-traffic ETA, each with the
/// trip's buffer.
public struct CommuteBenchmark: Sendable {
    public struct Outcome: Codable, Sendable {
        public var onTimeShare: Double
        public var meanEarlyMinutes: Double
        public var worstLateMinutes: Double
    }

    public struct Result: Codable, Sendable {
        public var commuters: Int
        public var days: Int
        public var planner: Outcome
        public var freeFlow: Outcome
        public var typicalTraffic: Outcome
        public var plannerMillisecondsPerPlan: Double
    }

    public let commuters: Int
    public let weeks: Int
    public let seed: UInt64

    public init(commuters: Int = 200, weeks: Int = 12, seed: UInt64 = 42) {
        self.commuters = commuters
        self.weeks = weeks
        self.seed = seed
    }

    static let buffer = 5
    static let zone = TimeZone(identifier: "Europe/Zurich")!

    struct Commuter {
        let origin: Coordinate
        let destination: Coordinate
        let freeFlowMinutes: Double
        let habit: Double
    }

    struct Day {
        let incidentMinutes: Double
        let seenIncidentShare: Double
        let weather: WeatherConditions?
        let trueWeatherFactor: Double
        let forecastRight: Bool
        let providerError: Double
        let noise: Double
    }

    /// The router a deployment would call: the profile with its error and half of an incident.
    struct SimulatedRouter: TravelTimeProvider {
        let name = "google"
        let commuter: Commuter
        let day: Day
        func travelTime(from origin: Coordinate, to destination: Coordinate, departure: Date) async throws
            -> TravelTime
        {
            let typical =
                commuter.freeFlowMinutes * TrafficProfile.factor(at: departure, timeZone: CommuteBenchmark.zone)
            let minutes = typical * (1 + day.providerError) + day.incidentMinutes * day.seenIncidentShare
            return TravelTime(
                distanceMeters: Int(commuter.freeFlowMinutes * 1000), durationSeconds: Int(minutes * 60),
                typicalDurationSeconds: Int(typical * 60), provider: name)
        }
    }

    /// How long a departure at `leave` really takes.
    static func truth(_ commuter: Commuter, _ day: Day, leave: Date) -> Double {
        let typical = commuter.freeFlowMinutes * TrafficProfile.factor(at: leave, timeZone: zone)
        return (typical * commuter.habit * day.trueWeatherFactor + day.incidentMinutes) * (1 + day.noise)
    }

    public func run() async throws -> Result {
        var random = SplitMix64(seed: seed)
        let population = (0..<commuters).map { index in
            Commuter(
                origin: Coordinate(latitude: 47 + Double(index) * 0.001, longitude: 8.5),
                destination: Coordinate(latitude: 47.2 + Double(index) * 0.001, longitude: 8.6),
                freeFlowMinutes: 12 + random.uniform() * 38, habit: 1 + random.normal() * 0.08)
        }
        // Monday 2027-01-04, 08:30 Zurich (07:30Z), and each weekday after it.
        let firstArrival = Date(timeIntervalSince1970: 1_799_047_800)
        var tallies = (planner: Tally(), freeFlow: Tally(), typical: Tally())
        var errors = Array(repeating: [Double](), count: commuters)
        var planSeconds = 0.0
        var plans = 0
        for week in 0..<weeks {
            for weekday in 0..<5 {
                let arrival = firstArrival.addingTimeInterval(Double(week * 7 + weekday) * 86_400)
                let rain = random.uniform() < 0.2
                let snow = !rain && random.uniform() < 0.04
                let forecastRight = random.uniform() < 0.85
                let incidentDay = random.uniform()
                for (index, commuter) in population.enumerated() {
                    let incident = random.uniform() < 0.05 + (incidentDay < 0.1 ? 0.1 : 0)
                    let day = Day(
                        incidentMinutes: incident ? 5 + random.uniform() * 20 : 0, seenIncidentShare: 0.5,
                        weather: snow
                            ? WeatherConditions(summary: "Snow", precipitationMm: 2, snowCm: 1.5, temperatureC: -1)
                            : rain
                                ? WeatherConditions(summary: "Rain", precipitationMm: 3, snowCm: 0, temperatureC: 8)
                                : nil,
                        trueWeatherFactor: snow ? 1.35 : rain ? 1.1 : 1, forecastRight: forecastRight,
                        providerError: random.normal() * 0.06, noise: random.normal() * 0.04)
                    let clock = ManualTimeSource(arrival.addingTimeInterval(-3 * 3600))
                    let router = SimulatedRouter(commuter: commuter, day: day)
                    let planner = LeavePlanner(
                        travel: TravelTimeLookup(primary: router, heuristic: router, clock: clock), weather: nil,
                        clock: clock)
                    let forecast: WeatherConditions? =
                        day.forecastRight
                        ? (day.weather
                            ?? WeatherConditions(summary: "Clear", precipitationMm: 0, snowCm: 0, temperatureC: 10))
                        : nil
                    let started = Date()
                    let plan = try await planner.plan(
                        LeavePlanner.Request(
                            origin: commuter.origin, destination: commuter.destination, arriveBy: arrival,
                            bufferMinutes: Self.buffer, onTimeTarget: 0.9, errors: errors[index].reversed(),
                            clientWeather: forecast))
                    planSeconds += Date().timeIntervalSince(started)
                    plans += 1
                    let actual = Self.truth(commuter, day, leave: plan.leaveAt)
                    tallies.planner.add(leave: plan.leaveAt, minutes: actual, arrival: arrival)
                    // The observation teaches the planner: what it took minus what the router said.
                    let expected = Double(plan.travel.durationSeconds) / 60 + Double(plan.weatherMinutes)
                    errors[index].append(actual - expected)

                    let free = arrival.addingTimeInterval(-(commuter.freeFlowMinutes + Double(Self.buffer)) * 60)
                    tallies.freeFlow.add(leave: free, minutes: Self.truth(commuter, day, leave: free), arrival: arrival)
                    let typicalGuess =
                        commuter.freeFlowMinutes
                        * TrafficProfile.factor(
                            at: arrival.addingTimeInterval(-commuter.freeFlowMinutes * 60), timeZone: Self.zone)
                    let typical = arrival.addingTimeInterval(-(typicalGuess + Double(Self.buffer)) * 60)
                    tallies.typical.add(
                        leave: typical, minutes: Self.truth(commuter, day, leave: typical), arrival: arrival)
                }
            }
        }
        return Result(
            commuters: commuters, days: weeks * 5, planner: tallies.planner.outcome,
            freeFlow: tallies.freeFlow.outcome, typicalTraffic: tallies.typical.outcome,
            plannerMillisecondsPerPlan: planSeconds / Double(max(plans, 1)) * 1000)
    }

    struct Tally {
        var trips = 0
        var onTime = 0
        var early = 0.0
        var worstLate = 0.0

        mutating func add(leave: Date, minutes: Double, arrival: Date) {
            let slack = arrival.timeIntervalSince(leave) / 60 - minutes
            trips += 1
            if slack >= 0 {
                onTime += 1
                early += slack
            } else {
                worstLate = max(worstLate, -slack)
            }
        }

        var outcome: Outcome {
            Outcome(
                onTimeShare: (Double(onTime) / Double(max(trips, 1)) * 1000).rounded() / 1000,
                meanEarlyMinutes: (early / Double(max(onTime, 1)) * 10).rounded() / 10,
                worstLateMinutes: (worstLate * 10).rounded() / 10)
        }
    }
}

/// The drills' seeded generator draws the commuters too, so every run simulates the same ones.
extension SplitMix64 {
    mutating func uniform() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// Box–Muller.
    mutating func normal() -> Double {
        let u = max(uniform(), 1e-12)
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * uniform())
    }
}
