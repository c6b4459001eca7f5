import ConciergeCore
import ConciergeModels
import Foundation
import Testing

/// The planner's rules without a server: the departure search across buckets, the bias, the
/// weather table, the calendar.
@Suite struct CommutePlannerRulesTests {
    /// Travel takes 60 minutes for departures before 07:30Z and 20 minutes after: the search
    /// must find the latest departure that still arrives, not the first bucket that fits.
    struct RushEnds: TravelTimeProvider {
        let name = "stub"
        static let calm = Date(timeIntervalSince1970: 1_800_000_000 - 1800)  // 07:30Z
        func travelTime(from origin: Coordinate, to destination: Coordinate, departure: Date) async throws
            -> TravelTime
        {
            let minutes = departure < Self.calm ? 60 : 20
            return TravelTime(
                distanceMeters: 20_000, durationSeconds: minutes * 60, typicalDurationSeconds: 1200, provider: name)
        }
    }

    static func request(arriveBy: Date, buffer: Int = 0, errors: [Double] = []) -> LeavePlanner.Request {
        LeavePlanner.Request(
            origin: Coordinate(latitude: 47.37, longitude: 8.54),
            destination: Coordinate(latitude: 47.5, longitude: 8.72),
            arriveBy: arriveBy, bufferMinutes: buffer, onTimeTarget: 0.5, errors: errors,
            clientWeather: WeatherConditions(summary: "Clear", precipitationMm: 0, snowCm: 0, temperatureC: 10))
    }

    @Test func theSearchFindsTheLatestDepartureAcrossBuckets() async throws {
        let clock = ManualTimeSource(Date(timeIntervalSince1970: 1_799_990_000))
        let lookup = TravelTimeLookup(primary: RushEnds(), heuristic: RushEnds(), clock: clock)
        let planner = LeavePlanner(travel: lookup, weather: nil, clock: clock)
        // Arrive by 08:00Z: leaving at 07:40Z takes 20 minutes (the target 0.5 needs no margin).
        let plan = try await planner.plan(Self.request(arriveBy: Date(timeIntervalSince1970: 1_800_000_000)))
        #expect(plan.leaveAt == Date(timeIntervalSince1970: 1_800_000_000 - 1200))
        #expect(!plan.heuristic)
        // Arrive by 07:45Z: 07:25Z is too late for the 60-minute rush, 07:30Z leaves 15 minutes,
        // so the answer is 06:45Z at the latest.
        let early = try await planner.plan(Self.request(arriveBy: Date(timeIntervalSince1970: 1_800_000_000 - 900)))
        #expect(early.leaveAt == Date(timeIntervalSince1970: 1_800_000_000 - 900 - 3600))
    }

    @Test func theBiasIsAWeightedMedianThatOutliersDoNotMove() {
        let steady = PersonalBias.learn(errors: Array(repeating: 6, count: 20), travelMinutes: 30)
        #expect(abs(steady.minutes - 6 * 20 / 22) < 0.01)
        let jammed = PersonalBias.learn(errors: [6, 6, 95, 6, 6, 6, 120, 6, 6, 6], travelMinutes: 30)
        #expect(jammed.minutes < 6 && jammed.minutes > 4)
        // Recent runs weigh more: the last five fast, the fifteen before slow.
        let improved = PersonalBias.learn(
            errors: Array(repeating: -2, count: 5) + Array(repeating: 5, count: 8), travelMinutes: 30)
        #expect(improved.minutes < 0)
        #expect(PersonalBias.learn(errors: [], travelMinutes: 30) == .none(travelMinutes: 30))
    }

    @Test func theWeatherTableAppliesTheLargestPrecipitationRowAndFogOnTop() {
        let table = WeatherPenaltyTable.standard
        let light = table.penalties(
            for: WeatherConditions(summary: "", precipitationMm: 1, snowCm: 0, temperatureC: 8), travelMinutes: 30)
        #expect(light.map(\.minutes) == [2] && light.first?.code == "rain")
        let freezing = table.penalties(
            for: WeatherConditions(summary: "", precipitationMm: 1, snowCm: 0, temperatureC: -1, visibilityKm: 0.5),
            travelMinutes: 30)
        #expect(freezing.map(\.code) == ["ice", "fog"] && freezing.map(\.minutes) == [9, 3])
        let dry = table.penalties(
            for: WeatherConditions(summary: "", precipitationMm: 0, snowCm: 0, temperatureC: 20), travelMinutes: 30)
        #expect(dry.isEmpty)
    }

    @Test func occurrencesFollowTheLocalClockAcrossDaylightSavingAndSkipHolidays() throws {
        let trip = CommuteTrip(
            id: "trp_1", name: "Office", origin: CommutePlace(latitude: 47.37, longitude: 8.54, label: "A"),
            destination: CommutePlace(latitude: 47.5, longitude: 8.72, label: "B"), arrivalTime: "08:30",
            repeatDays: ["mon"], timeZone: "Europe/Zurich", createdAt: "2027-01-01T00:00:00.000Z")
        // Saturday 2027-03-27; summer time starts on Sunday the 28th.
        let saturday = Date(timeIntervalSince1970: 1_806_134_400)
        let next = try #require(TripCalendar.noHolidays.nextOccurrence(of: trip, after: saturday))
        #expect(next.day == LocalDate(year: 2027, month: 3, day: 29))
        #expect(next.arriveBy == Date(timeIntervalSince1970: 1_806_301_800))  // 06:30Z = 08:30 CEST
        // Easter Monday 2027 (March 29) is a Swiss holiday: with holidays on, the next Monday.
        #expect(
            TripCalendar().nextOccurrence(of: trip, after: saturday)?.day == LocalDate(year: 2027, month: 4, day: 5))
        #expect(TripCalendar.parseDay("2027-02-29") == nil && TripCalendar.parseDay("2028-02-29") != nil)
        #expect(TripRules.clockTime("24:00") == nil && TripRules.clockTime("07:05")! == (7, 5))
    }

    /// Foundation reads 25:00 as 01:00 the next day; an instant must be one as written.
    @Test func anInstantIsReadOnlyWhenEveryFieldIsInRange() {
        for impossible in [
            "2027-01-14T25:00:00Z", "2027-01-14T24:00:00Z", "2027-01-14T08:60:00Z", "2027-02-29T08:00:00Z",
            "2027-04-31T08:00:00Z", "2027-13-01T08:00:00Z", "yesterday",
        ] {
            #expect(TripRules.instant(impossible) == nil, "\(impossible)")
        }
        #expect(TripRules.instant("2028-02-29T08:00:00Z") == Date(timeIntervalSince1970: 1_835_424_000))
        #expect(TripRules.instant("2027-01-14T08:00:00.500Z") == Date(timeIntervalSince1970: 1_799_913_600.5))
    }
}
