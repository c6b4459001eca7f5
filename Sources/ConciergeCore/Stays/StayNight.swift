public import Foundation

/// One night of a stay, named by the local date it starts on (`2026-12-24`). Text of this form
/// sorts as the dates do, which is how nights are stored and compared.
public struct StayNight: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.count == 10, parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        // 2026-02-30 is not a date: it must survive a round trip through the calendar.
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(secondsFromGMT: 0)!
        guard let date = utc.date(from: DateComponents(year: year, month: month, day: day)),
            utc.component(.day, from: date) == day
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The local date of `date` in `calendar`'s zone.
    public init(_ date: Date, in calendar: Calendar) {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        year = parts.year ?? 1970
        month = parts.month ?? 1
        day = parts.day ?? 1
    }

    /// `YYYY-MM-DD`, written digit by digit: the search writes one per room type and night.
    public var description: String {
        func digits(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
        }
        return digits(year, 4) + "-" + digits(month, 2) + "-" + digits(day, 2)
    }

    public static func < (lhs: StayNight, rhs: StayNight) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// This date at `hour`:00 local time.
    public func date(hour: Int, in calendar: Calendar) -> Date {
        calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour))
            ?? Date(timeIntervalSince1970: 0)
    }

    public func adding(days: Int, in calendar: Calendar) -> StayNight {
        let noon = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: 12))!
        return StayNight(calendar.date(byAdding: .day, value: days, to: noon)!, in: calendar)
    }

    /// Whole days from `self` to `other`.
    public func days(to other: StayNight, in calendar: Calendar) -> Int {
        let from = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: 12))!
        let to = calendar.date(from: DateComponents(year: other.year, month: other.month, day: other.day, hour: 12))!
        return calendar.dateComponents([.day], from: from, to: to).day ?? 0
    }

    /// Day of the week, 1 = Sunday … 7 = Saturday.
    public func weekday(in calendar: Calendar) -> Int {
        calendar.component(.weekday, from: date(hour: 12, in: calendar))
    }
}
