import ConciergeModels
public import Foundation

/// Converts between wall-clock times in Switzerland (Europe/Zurich) and the UTC ISO 8601 strings
/// the booking API expects (`2025-01-15T13:00:00.000Z`).
///
/// ```swift
/// SwissDateTime.utcISO8601(year: 2025, month: 1, day: 15, hour: 14, minute: 0)
/// // "2025-01-15T13:00:00.000Z"  (CET, UTC+1)
/// SwissDateTime.utcISO8601(year: 2025, month: 7, day: 15, hour: 14, minute: 0)
/// // "2025-07-15T12:00:00.000Z"  (CEST, UTC+2)
/// ```
public enum SwissDateTime {
    /// The Europe/Zurich time zone all pickup times are entered in.
    ///
    /// ```swift
    /// SwissDateTime.timeZone.identifier   // "Europe/Zurich"
    /// ```
    public static let timeZone: TimeZone =
        TimeZone(identifier: "Europe/Zurich") ?? TimeZone(secondsFromGMT: 3600) ?? .gmt

    /// The UTC instant, formatted for the API, of a wall-clock time in Switzerland; `nil` when the
    /// date or time does not exist on the calendar (month 13, 30 February, hour 24, minute 60,
    /// years outside 1…9999).
    ///
    /// Daylight-saving switches (last Sunday of March and of October, at 01:00 UTC):
    /// - **Spring forward (gap):** local 02:00–02:59 does not exist. Such a time is moved forward
    ///   by the gap, to the same minutes after it: 02:30 on 2026-03-29 is taken as 03:30 CEST,
    ///   "2026-03-29T01:30:00.000Z" (the same instant 02:30 CET would have been).
    /// - **Fall back (overlap):** local 02:00–02:59 happens twice. The first occurrence, still in
    ///   summer time (CEST, UTC+2), is chosen: 02:30 on 2026-10-25 is "2026-10-25T00:30:00.000Z",
    ///   not the later "01:30Z".
    ///
    /// ```swift
    /// SwissDateTime.utcISO8601(year: 2026, month: 3, day: 29, hour: 2, minute: 30)
    /// // "2026-03-29T01:30:00.000Z"
    /// SwissDateTime.utcISO8601(year: 2025, month: 2, day: 30, hour: 9, minute: 0)
    /// // nil
    /// ```
    public static func utcISO8601(year: Int, month: Int, day: Int, hour: Int, minute: Int) -> String? {
        date(year: year, month: month, day: day, hour: hour, minute: minute).map(utcISO8601(from:))
    }

    /// The instant of a wall-clock time in Switzerland, with the same rules (and `nil` cases) as
    /// ``utcISO8601(year:month:day:hour:minute:)``.
    ///
    /// ```swift
    /// let pickup = SwissDateTime.date(year: 2025, month: 1, day: 15, hour: 14, minute: 0)
    /// ```
    public static func date(year: Int, month: Int, day: Int, hour: Int, minute: Int) -> Date? {
        guard (1...9999).contains(year), (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        let wall = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute)
        // The wall-clock time read as if it were UTC; the calendar normalises 30 February to
        // 2 March, so a round trip rejects dates that do not exist.
        guard let asUTC = utcCalendar.date(from: wall) else { return nil }
        let back = utcCalendar.dateComponents([.year, .month, .day, .hour, .minute], from: asUTC)
        guard back.year == year, back.month == month, back.day == day, back.hour == hour, back.minute == minute
        else { return nil }

        // Zurich's offset a day before and a day after covers any switch near this time.
        let oneDay: TimeInterval = 86_400
        let before = timeZone.secondsFromGMT(for: asUTC.addingTimeInterval(-oneDay))
        let after = timeZone.secondsFromGMT(for: asUTC.addingTimeInterval(oneDay))
        let candidates = Set([before, after]).map { offset in asUTC.addingTimeInterval(-TimeInterval(offset)) }
            .filter { instant in
                timeZone.secondsFromGMT(for: instant) == Int((asUTC.timeIntervalSince(instant)).rounded())
            }
        // Overlap: both offsets fit; the earlier instant is the first (summer time) occurrence.
        // Gap: neither fits; reading the time with the offset from before the switch lands the
        // same distance after it (02:30 CET is 03:30 CEST).
        return candidates.min() ?? asUTC.addingTimeInterval(-TimeInterval(before))
    }

    /// Formats an instant for the API: UTC, milliseconds, "Z".
    ///
    /// ```swift
    /// SwissDateTime.utcISO8601(from: Date(timeIntervalSince1970: 0))   // "1970-01-01T00:00:00.000Z"
    /// ```
    public static func utcISO8601(from date: Date) -> String {
        WireDate.string(from: date)
    }

    /// Parses an ISO 8601 timestamp from the API, with or without fractional seconds
    /// ("2025-01-15T13:00:00.000Z", "2025-01-15T13:00:00Z"; an explicit offset such as "+01:00"
    /// is accepted too). `nil` when the text is not such a timestamp.
    ///
    /// ```swift
    /// SwissDateTime.parse("2025-01-15T13:00:00Z")   // 2025-01-15 13:00 UTC
    /// SwissDateTime.parse("15.01.2025 14:00")       // nil
    /// ```
    public static func parse(_ text: String) -> Date? {
        WireDate.date(from: text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The wall-clock reading of an instant in Switzerland: year, month, day, hour, minute and
    /// second, with `timeZone` set to Europe/Zurich.
    ///
    /// ```swift
    /// let local = SwissDateTime.zurichComponents(of: SwissDateTime.parse("2025-07-15T12:00:00Z")!)
    /// // local.hour == 14
    /// ```
    public static func zurichComponents(of date: Date) -> DateComponents {
        var components = zurichCalendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        components.timeZone = timeZone
        return components
    }

    private static let utcCalendar = calendar(in: .gmt)
    private static let zurichCalendar = calendar(in: timeZone)

    private static func calendar(in timeZone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }
}
