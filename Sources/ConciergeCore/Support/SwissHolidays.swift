/// A calendar day without a time or a time zone, in the proleptic Gregorian calendar.
///
/// The initialiser does not check the day against the month: an impossible date such as
/// 2026-02-30 simply never matches a holiday.
public struct LocalDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// `2026-04-05`.
    public var description: String {
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value.magnitude)
            return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// The date `days` days later (earlier when negative).
    public func adding(days: Int) -> LocalDate {
        LocalDate(daysSinceEpoch: daysSinceEpoch + days)
    }

    /// Days since 1970-01-01 (negative before), by Howard Hinnant's `days_from_civil`.
    var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = floorDiv(y, 400)
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The inverse of `daysSinceEpoch` (Hinnant's `civil_from_days`).
    init(daysSinceEpoch: Int) {
        let z = daysSinceEpoch + 719_468
        let era = floorDiv(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        self.init(year: year, month: month, day: day)
    }
}

/// A public holiday: its English name and its date.
public struct Holiday: Sendable, Hashable {
    public let name: String
    public let date: LocalDate

    public init(name: String, date: LocalDate) {
        self.name = name
        self.date = date
    }
}

/// The Swiss public holidays that carry the holiday surcharge, for any year: New Year's Day
/// (1 Jan), Berchtoldstag (2 Jan), Good Friday, Easter Monday, Ascension Day (Easter + 39),
/// Whit Monday (Easter + 50), Swiss National Day (1 Aug), Christmas Day (25 Dec) and
/// St. Stephen's Day (26 Dec). Cantonal holidays are not included.
public enum SwissHolidays {
    /// The holidays of `year`, in date order.
    public static func holidays(in year: Int) -> [Holiday] {
        let easter = easterSunday(in: year)
        return [
            Holiday(name: "New Year's Day", date: LocalDate(year: year, month: 1, day: 1)),
            Holiday(name: "Berchtoldstag", date: LocalDate(year: year, month: 1, day: 2)),
            Holiday(name: "Good Friday", date: easter.adding(days: -2)),
            Holiday(name: "Easter Monday", date: easter.adding(days: 1)),
            Holiday(name: "Ascension Day", date: easter.adding(days: 39)),
            Holiday(name: "Whit Monday", date: easter.adding(days: 50)),
            Holiday(name: "Swiss National Day", date: LocalDate(year: year, month: 8, day: 1)),
            Holiday(name: "Christmas Day", date: LocalDate(year: year, month: 12, day: 25)),
            Holiday(name: "St. Stephen's Day", date: LocalDate(year: year, month: 12, day: 26)),
        ].sorted { $0.date < $1.date }
    }

    /// The holiday on `day`, or nil on an ordinary day.
    public static func holiday(on day: LocalDate) -> Holiday? {
        holidays(in: day.year).first { $0.date == day }
    }

    /// Easter Sunday in the Gregorian calendar, by the anonymous Gregorian algorithm
    /// (Meeus/Jones/Butcher), with floored division so that every year gets an answer.
    public static func easterSunday(in year: Int) -> LocalDate {
        let a = floorMod(year, 19)
        let b = floorDiv(year, 100)
        let c = floorMod(year, 100)
        let d = floorDiv(b, 4)
        let e = floorMod(b, 4)
        let f = floorDiv(b + 8, 25)
        let g = floorDiv(b - f + 1, 3)
        let h = floorMod(19 * a + b - d - g + 15, 30)
        let i = c / 4
        let k = c % 4
        let l = floorMod(32 + 2 * e + 2 * i - h - k, 7)
        let m = (a + 11 * h + 22 * l) / 451
        let n = h + l - 7 * m + 114
        return LocalDate(year: year, month: n / 31, day: n % 31 + 1)
    }
}

private func floorDiv(_ a: Int, _ b: Int) -> Int {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
}

private func floorMod(_ a: Int, _ b: Int) -> Int {
    a - floorDiv(a, b) * b
}
