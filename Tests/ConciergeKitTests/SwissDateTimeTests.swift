import ConciergeKit
import Foundation
import Testing

@Suite("SwissDateTime")
struct SwissDateTimeTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let local: (year: Int, month: Int, day: Int, hour: Int, minute: Int)
        let utc: String
        var testDescription: String { "\(local) → \(utc)" }
    }

    static func at(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ utc: String) -> Case {
        Case(local: (year, month, day, hour, minute), utc: utc)
    }

    @Test(arguments: [
        // Winter (CET, UTC+1) and summer (CEST, UTC+2).
        at(2025, 1, 15, 14, 0, "2025-01-15T13:00:00.000Z"),
        at(2025, 7, 15, 14, 0, "2025-07-15T12:00:00.000Z"),
        at(2026, 12, 31, 23, 59, "2026-12-31T22:59:00.000Z"),
        at(2026, 1, 1, 0, 30, "2025-12-31T23:30:00.000Z"),
        at(2024, 2, 29, 12, 0, "2024-02-29T11:00:00.000Z"),
        // Spring forward 2025-03-30: 02:00 CET becomes 03:00 CEST.
        at(2025, 3, 30, 1, 59, "2025-03-30T00:59:00.000Z"),
        at(2025, 3, 30, 3, 0, "2025-03-30T01:00:00.000Z"),
        at(2025, 3, 30, 12, 0, "2025-03-30T10:00:00.000Z"),
        // Fall back 2025-10-26: 03:00 CEST becomes 02:00 CET.
        at(2025, 10, 26, 1, 59, "2025-10-25T23:59:00.000Z"),
        at(2025, 10, 26, 3, 0, "2025-10-26T02:00:00.000Z"),
        at(2025, 10, 26, 12, 0, "2025-10-26T11:00:00.000Z"),
        // Spring forward 2026-03-29 and fall back 2026-10-25.
        at(2026, 3, 29, 1, 30, "2026-03-29T00:30:00.000Z"),
        at(2026, 3, 29, 3, 30, "2026-03-29T01:30:00.000Z"),
        at(2026, 3, 28, 14, 0, "2026-03-28T13:00:00.000Z"),
        at(2026, 3, 30, 14, 0, "2026-03-30T12:00:00.000Z"),
        at(2026, 10, 25, 1, 30, "2026-10-24T23:30:00.000Z"),
        at(2026, 10, 25, 3, 30, "2026-10-25T02:30:00.000Z"),
        at(2026, 10, 24, 14, 0, "2026-10-24T12:00:00.000Z"),
        at(2026, 10, 26, 14, 0, "2026-10-26T13:00:00.000Z"),
    ])
    func convertsWallClockToUTC(_ c: Case) {
        let l = c.local
        #expect(
            SwissDateTime.utcISO8601(year: l.year, month: l.month, day: l.day, hour: l.hour, minute: l.minute) == c.utc)
    }

    /// Local 02:00–02:59 does not exist on spring-forward days; it is moved past the gap.
    @Test(arguments: [
        at(2026, 3, 29, 2, 30, "2026-03-29T01:30:00.000Z"),  // = 03:30 CEST
        at(2026, 3, 29, 2, 0, "2026-03-29T01:00:00.000Z"),  // = 03:00 CEST
        at(2026, 3, 29, 2, 59, "2026-03-29T01:59:00.000Z"),
        at(2025, 3, 30, 2, 30, "2025-03-30T01:30:00.000Z"),
    ])
    func gapTakesTheTimeAfterTheSwitch(_ c: Case) throws {
        let l = c.local
        let utc = try #require(
            SwissDateTime.utcISO8601(year: l.year, month: l.month, day: l.day, hour: l.hour, minute: l.minute))
        #expect(utc == c.utc)
        let local = SwissDateTime.zurichComponents(of: try #require(SwissDateTime.parse(utc)))
        #expect(local.hour == l.hour + 1)
        #expect(local.minute == l.minute)
    }

    /// Local 02:00–02:59 happens twice on fall-back days; the first (summer time) is chosen.
    @Test(arguments: [
        at(2026, 10, 25, 2, 30, "2026-10-25T00:30:00.000Z"),
        at(2026, 10, 25, 2, 0, "2026-10-25T00:00:00.000Z"),
        at(2026, 10, 25, 2, 59, "2026-10-25T00:59:00.000Z"),
        at(2025, 10, 26, 2, 30, "2025-10-26T00:30:00.000Z"),
    ])
    func overlapTakesTheFirstOccurrence(_ c: Case) throws {
        let l = c.local
        #expect(
            SwissDateTime.utcISO8601(year: l.year, month: l.month, day: l.day, hour: l.hour, minute: l.minute) == c.utc)
        // Both instants an hour apart read as the same wall-clock time.
        let first = try #require(SwissDateTime.parse(c.utc))
        let second = first.addingTimeInterval(3600)
        #expect(SwissDateTime.zurichComponents(of: first) == SwissDateTime.zurichComponents(of: second))
        #expect(SwissDateTime.zurichComponents(of: first).hour == l.hour)
    }

    @Test(arguments: [
        (2025, 2, 29, 12, 0),
        (2025, 4, 31, 12, 0),
        (2025, 13, 1, 12, 0),
        (2025, 0, 1, 12, 0),
        (2025, 1, 0, 12, 0),
        (2025, 1, 32, 12, 0),
        (2025, 1, 15, 24, 0),
        (2025, 1, 15, -1, 0),
        (2025, 1, 15, 12, 60),
        (2025, 1, 15, 12, -1),
        (0, 1, 15, 12, 0),
        (10_000, 1, 15, 12, 0),
    ])
    func rejectsInvalidDates(year: Int, month: Int, day: Int, hour: Int, minute: Int) {
        #expect(SwissDateTime.utcISO8601(year: year, month: month, day: day, hour: hour, minute: minute) == nil)
    }

    /// Every hour of 2025 and 2026 converts and reads back as the same wall-clock time, except the
    /// two spring-forward hours, which read back an hour later.
    @Test func roundTripsEveryHourOf2025And2026() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        var day = try #require(calendar.date(from: DateComponents(year: 2025, month: 1, day: 1)))
        let end = try #require(calendar.date(from: DateComponents(year: 2027, month: 1, day: 1)))
        var gaps = 0
        while day < end {
            let ymd = calendar.dateComponents([.year, .month, .day], from: day)
            for hour in 0..<24 {
                let utc = try #require(
                    SwissDateTime.utcISO8601(year: ymd.year!, month: ymd.month!, day: ymd.day!, hour: hour, minute: 15))
                let local = SwissDateTime.zurichComponents(of: try #require(SwissDateTime.parse(utc)))
                #expect(local.day == ymd.day)
                #expect(local.minute == 15)
                if local.hour != hour {
                    gaps += 1
                    #expect(hour == 2 && local.hour == 3 && ymd.month == 3, "\(ymd) \(hour)")
                }
            }
            day = day.addingTimeInterval(86_400)
        }
        #expect(gaps == 2)
    }

    @Test func formatsDates() {
        #expect(SwissDateTime.utcISO8601(from: Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
        #expect(
            SwissDateTime.utcISO8601(from: Date(timeIntervalSince1970: 1_736_946_000)) == "2025-01-15T13:00:00.000Z")
        #expect(
            SwissDateTime.utcISO8601(from: Date(timeIntervalSince1970: 1_736_946_000.25)) == "2025-01-15T13:00:00.250Z")
    }

    @Test func parsesWithAndWithoutFractions() throws {
        let expected = Date(timeIntervalSince1970: 1_736_946_000)
        #expect(SwissDateTime.parse("2025-01-15T13:00:00.000Z") == expected)
        #expect(SwissDateTime.parse("2025-01-15T13:00:00Z") == expected)
        #expect(SwissDateTime.parse("2025-01-15T14:00:00+01:00") == expected)
        let fraction = try #require(SwissDateTime.parse("2025-01-15T13:00:00.123Z"))
        #expect(abs(fraction.timeIntervalSince(expected) - 0.123) < 0.000_5)
        #expect(
            SwissDateTime.parse("2025-01-15T13:00:00.123Z").map(SwissDateTime.utcISO8601(from:))
                == "2025-01-15T13:00:00.123Z")
    }

    @Test(arguments: ["", "nope", "2025-01-15", "15.01.2025 14:00", "2025-13-15T13:00:00Z"])
    func rejectsUnparseableText(_ text: String) {
        #expect(SwissDateTime.parse(text) == nil)
    }

    @Test func zurichComponentsInWinterAndSummer() throws {
        let winter = SwissDateTime.zurichComponents(of: try #require(SwissDateTime.parse("2025-01-15T13:00:00Z")))
        #expect(
            [winter.year, winter.month, winter.day, winter.hour, winter.minute, winter.second] == [
                2025, 1, 15, 14, 0, 0,
            ])
        #expect(winter.timeZone?.identifier == "Europe/Zurich")
        let summer = SwissDateTime.zurichComponents(of: try #require(SwissDateTime.parse("2025-07-15T22:30:45Z")))
        #expect(
            [summer.year, summer.month, summer.day, summer.hour, summer.minute, summer.second] == [
                2025, 7, 16, 0, 30, 45,
            ])
    }

    @Test func exposesDateForWallClockTime() throws {
        let date = try #require(SwissDateTime.date(year: 2025, month: 1, day: 15, hour: 14, minute: 0))
        #expect(date == Date(timeIntervalSince1970: 1_736_946_000))
        #expect(SwissDateTime.timeZone.identifier == "Europe/Zurich")
    }
}
