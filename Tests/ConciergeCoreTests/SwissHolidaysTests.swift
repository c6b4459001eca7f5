import ConciergeCore
import Testing

@Suite struct SwissHolidaysTests {
    @Test(arguments: [
        (1583, 4, 10), (1818, 3, 22), (1943, 4, 25), (1961, 4, 2), (1999, 4, 4), (2000, 4, 23), (2008, 3, 23),
        (2011, 4, 24), (2019, 4, 21), (2024, 3, 31), (2025, 4, 20), (2026, 4, 5), (2027, 3, 28), (2028, 4, 16),
        (2030, 4, 21), (2038, 4, 25), (2285, 3, 22), (2400, 4, 16), (4099, 4, 19),
    ])
    func easterSundayFollowsTheGregorianComputus(year: Int, month: Int, day: Int) {
        #expect(SwissHolidays.easterSunday(in: year) == LocalDate(year: year, month: month, day: day))
    }

    @Test func easterAlwaysFallsBetweenTheTwentySecondOfMarchAndTheTwentyFifthOfApril() {
        for year in 1583...3000 {
            let easter = SwissHolidays.easterSunday(in: year)
            #expect(easter >= LocalDate(year: year, month: 3, day: 22))
            #expect(easter <= LocalDate(year: year, month: 4, day: 25))
        }
    }

    @Test(arguments: [
        (2024, [(3, 29), (4, 1), (5, 9), (5, 20)]),
        (2025, [(4, 18), (4, 21), (5, 29), (6, 9)]),
        (2026, [(4, 3), (4, 6), (5, 14), (5, 25)]),
        (2027, [(3, 26), (3, 29), (5, 6), (5, 17)]),
        (2028, [(4, 14), (4, 17), (5, 25), (6, 5)]),
    ])
    func theYearHasNineHolidaysInDateOrder(year: Int, movable: [(Int, Int)]) {
        let holidays = SwissHolidays.holidays(in: year)
        #expect(
            holidays.map(\.name) == [
                "New Year's Day", "Berchtoldstag", "Good Friday", "Easter Monday", "Ascension Day", "Whit Monday",
                "Swiss National Day", "Christmas Day", "St. Stephen's Day",
            ])
        let fixed = [(1, 1), (1, 2)] + movable + [(8, 1), (12, 25), (12, 26)]
        #expect(holidays.map(\.date) == fixed.map { LocalDate(year: year, month: $0.0, day: $0.1) })
        #expect(holidays.map(\.date) == holidays.map(\.date).sorted())
    }

    @Test func holidayOnADayFindsItByDate() {
        #expect(SwissHolidays.holiday(on: LocalDate(year: 2025, month: 4, day: 21))?.name == "Easter Monday")
        #expect(SwissHolidays.holiday(on: LocalDate(year: 2026, month: 5, day: 14))?.name == "Ascension Day")
        #expect(SwissHolidays.holiday(on: LocalDate(year: 2026, month: 5, day: 25))?.name == "Whit Monday")
        #expect(SwissHolidays.holiday(on: LocalDate(year: 2027, month: 8, day: 1))?.name == "Swiss National Day")
        #expect(SwissHolidays.holiday(on: LocalDate(year: 2031, month: 1, day: 2))?.name == "Berchtoldstag")
    }

    @Test func ordinaryDaysAndEasterSundayItselfAreNotHolidays() {
        #expect(SwissHolidays.holiday(on: LocalDate(year: 2025, month: 4, day: 20)) == nil)  // Easter Sunday
        #expect(SwissHolidays.holiday(on: LocalDate(year: 2025, month: 4, day: 19)) == nil)
        #expect(SwissHolidays.holiday(on: LocalDate(year: 2025, month: 1, day: 3)) == nil)
        #expect(SwissHolidays.holiday(on: LocalDate(year: 2025, month: 12, day: 24)) == nil)
        #expect(SwissHolidays.holiday(on: LocalDate(year: 2025, month: 12, day: 31)) == nil)
        #expect(SwissHolidays.holiday(on: LocalDate(year: 2026, month: 2, day: 30)) == nil)
    }

    @Test func datesAddDaysAcrossMonthsYearsAndLeapDays() {
        #expect(LocalDate(year: 2024, month: 2, day: 28).adding(days: 1) == LocalDate(year: 2024, month: 2, day: 29))
        #expect(LocalDate(year: 2025, month: 2, day: 28).adding(days: 1) == LocalDate(year: 2025, month: 3, day: 1))
        #expect(LocalDate(year: 2000, month: 2, day: 28).adding(days: 1) == LocalDate(year: 2000, month: 2, day: 29))
        #expect(LocalDate(year: 2100, month: 2, day: 28).adding(days: 1) == LocalDate(year: 2100, month: 3, day: 1))
        #expect(LocalDate(year: 2025, month: 12, day: 31).adding(days: 1) == LocalDate(year: 2026, month: 1, day: 1))
        #expect(LocalDate(year: 2026, month: 1, day: 1).adding(days: -1) == LocalDate(year: 2025, month: 12, day: 31))
        #expect(LocalDate(year: 1970, month: 1, day: 1).adding(days: -1) == LocalDate(year: 1969, month: 12, day: 31))
        #expect(LocalDate(year: 2025, month: 4, day: 20).adding(days: 50) == LocalDate(year: 2025, month: 6, day: 9))
    }

    @Test func datesCompareChronologicallyAndPrintAsISO() {
        #expect(LocalDate(year: 2025, month: 12, day: 31) < LocalDate(year: 2026, month: 1, day: 1))
        #expect(LocalDate(year: 2026, month: 1, day: 31) < LocalDate(year: 2026, month: 2, day: 1))
        #expect(LocalDate(year: 2026, month: 2, day: 1) < LocalDate(year: 2026, month: 2, day: 2))
        #expect(LocalDate(year: 2026, month: 4, day: 5).description == "2026-04-05")
    }
}
