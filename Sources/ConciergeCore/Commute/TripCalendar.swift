public import ConciergeModels
public import Foundation

/// When a trip happens: its arrival on a local date, and its next occurrence, skipping days
/// that are not repeat days and holidays.
public struct TripCalendar: Sendable {
    /// Days on which no trip runs (and nothing is sent). Swiss public holidays by default.
    public let isHoliday: @Sendable (LocalDate) -> Bool

    public init(isHoliday: @escaping @Sendable (LocalDate) -> Bool = { SwissHolidays.holiday(on: $0) != nil }) {
        self.isHoliday = isHoliday
    }

    /// No holidays at all.
    public static let noHolidays = TripCalendar { _ in false }

    public func arrival(of trip: CommuteTrip, on day: LocalDate) -> Date? {
        guard let zone = TripRules.timeZone(trip.timeZone), let time = TripRules.clockTime(trip.arrivalTime) else {
            return nil
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.date(
            from: DateComponents(year: day.year, month: day.month, day: day.day, hour: time.hour, minute: time.minute))
    }

    public func localDate(_ date: Date, in zoneName: String) -> LocalDate? {
        guard let zone = TripRules.timeZone(zoneName) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return LocalDate(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)
    }

    /// `mon`…`sun` of a local date.
    public static func dayName(_ day: LocalDate) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let date = calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day)) ?? .distantPast
        let weekday = calendar.component(.weekday, from: date)  // 1 = Sunday
        return CommuteTrip.dayNames[(weekday + 5) % 7]
    }

    /// The first occurrence whose arrival is after `after`, within two weeks.
    public func nextOccurrence(of trip: CommuteTrip, after: Date) -> (day: LocalDate, arriveBy: Date)? {
        guard let today = localDate(after, in: trip.timeZone) else { return nil }
        for offset in 0..<15 {
            let day = today.adding(days: offset)
            guard trip.repeatDays.contains(Self.dayName(day)), !isHoliday(day),
                let arrival = arrival(of: trip, on: day), arrival > after
            else { continue }
            return (day, arrival)
        }
        return nil
    }

    /// `YYYY-MM-DD`.
    public static func parseDay(_ text: String) -> LocalDate? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (2000...2100).contains(year), (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        let date = LocalDate(year: year, month: month, day: day)
        // 2026-02-31 is not a day: it must survive a round trip through the calendar.
        guard date.adding(days: 0) == date else { return nil }
        return date
    }
}
