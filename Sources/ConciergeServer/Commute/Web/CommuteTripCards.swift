import ConciergeCore
import ConciergeModels
import ConciergeProviders
import Foundation

/// What `/commute` shows of each trip: where and when, its next leave time in the trip's zone
/// (the recommendation `GET /commute/trips/{id}/recommendation` gives), and the reasons.
struct CommuteTripCards {
    let web: WebFrontEnd
    let service: CommuteService
    let clock: any TimeSource

    func trips(accountID: String, visit: WebVisit) async throws -> [[String: Any]] {
        var cards: [[String: Any]] = []
        for trip in try await service.trips(accountID: accountID) {
            cards.append(await card(trip, accountID: accountID, visit: visit))
        }
        return cards
    }

    private func card(_ trip: CommuteTrip, accountID: String, visit: WebVisit) async -> [String: Any] {
        let language = visit.language
        let reasons = CommuteLeaveReasons(strings: web.strings, language: language)
        let zone = TripRules.timeZone(trip.timeZone) ?? WebFormat.zurich
        var card: [String: Any] = [
            "id": trip.id, "name": trip.name, "from": trip.origin.label, "to": trip.destination.label,
            "zone": trip.timeZone,
            "schedule": reasons.text(
                "schedule",
                [
                    "time": trip.arrivalTime,
                    "days": trip.repeatDays.map { reasons.text("day_short_\($0)") }.joined(separator: ", "),
                ]),
        ]
        do {
            let recommendation = try await service.recommendation(tripID: trip.id, accountID: accountID, day: nil)
            guard let leaveAt = WireDate.date(from: recommendation.leaveAt),
                let arriveBy = WireDate.date(from: recommendation.arriveBy)
            else { throw ConciergeError(.invalidInput, code: "invalid_request", message: "unreadable times") }
            card["leaveTime"] = WebFormat.time(leaveAt, zone: zone, language)
            card["leaveDay"] = WebFormat.date(leaveAt, zone: zone, language)
            card["arriveBy"] = WebFormat.time(arriveBy, zone: zone, language)
            card["leaveAtISO"] = recommendation.leaveAt
            card["leaveNow"] = leaveAt <= clock.now
            let rushHour = TrafficProfile.factor(
                at: TravelTimeLookup.bucketStart(leaveAt),
                timeZone: OfflineTravelTimes.solarZone(trip.origin.coordinate))
            card["reasons"] = reasons.sentences(
                recommendation, rushHourFactor: rushHour, skipped: skippedHolidays(trip, before: arriveBy))
        } catch let error as ConciergeError where error.code == "no_occurrence" {
            card["noPlan"] = reasons.text("no_occurrence")
        } catch {
            card["noPlan"] = reasons.text("plan_unavailable")
        }
        return card
    }

    /// The trip's days from today up to its next occurrence that are holidays: the reason the
    /// next leave time is later than the person might expect.
    private func skippedHolidays(_ trip: CommuteTrip, before arrival: Date) -> [(day: LocalDate, name: String?)] {
        let calendar = service.calendar
        let now = clock.now
        guard let today = calendar.localDate(now, in: trip.timeZone),
            let last = calendar.localDate(arrival, in: trip.timeZone)
        else { return [] }
        var skipped: [(day: LocalDate, name: String?)] = []
        var day = today
        while day < last {
            if trip.repeatDays.contains(TripCalendar.dayName(day)), calendar.isHoliday(day),
                let arrival = calendar.arrival(of: trip, on: day), arrival > now
            {
                skipped.append((day, SwissHolidays.holiday(on: day)?.name))
            }
            day = day.adding(days: 1)
        }
        return skipped
    }
}
