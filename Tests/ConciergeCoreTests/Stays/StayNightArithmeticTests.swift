import ConciergeCore
import Foundation
import Testing

/// Nights are counted as whole Gregorian dates: the arithmetic agrees with Foundation's
/// calendar in the hotel's zone (across leap years, century years and DST changes).
@Suite struct StayNightArithmeticTests {
    static let calendar = HotelSettings.demo.calendar

    @Test func addingCountingAndWeekdaysAgreeWithTheCalendar() throws {
        let start = try #require(StayNight("1999-12-25"))
        let noon = Self.calendar.date(from: DateComponents(year: 1999, month: 12, day: 25, hour: 12))!
        var previous = start
        for offset in stride(from: 0, through: 20_000, by: 7) {
            let date = Self.calendar.date(byAdding: .day, value: offset, to: noon)!
            let expected = StayNight(date, in: Self.calendar)
            let night = start.adding(days: offset, in: Self.calendar)
            #expect(night == expected)
            #expect(start.days(to: night, in: Self.calendar) == offset)
            #expect(night.weekday(in: Self.calendar) == Self.calendar.component(.weekday, from: date))
            #expect(previous.days(to: night, in: Self.calendar) == (offset == 0 ? 0 : 7))
            #expect(night.adding(days: -offset, in: Self.calendar) == start)
            #expect(StayNight(night.description) == night)
            previous = night
        }
    }

    @Test func onlyRealDatesParse() {
        #expect(StayNight("2028-02-29") != nil)
        #expect(StayNight("2027-02-29") == nil)
        #expect(StayNight("2000-02-29") != nil)
        #expect(StayNight("2100-02-29") == nil)
        #expect(StayNight("2027-04-31") == nil)
        #expect(StayNight("2027-12-31") != nil)
        #expect(StayNight("2027-13-01") == nil)
    }

    @Test func aRangeOverTheYearEndAndALeapDayHasEveryNight() throws {
        var hotel = HotelSettings.demo
        hotel.maxNights = 90
        let range = try StayRange(
            checkIn: StayNight("2027-12-30")!, checkOut: StayNight("2028-03-02")!, today: StayNight("2027-12-01")!,
            hotel: hotel)
        #expect(range.nights.count == 63)
        #expect(range.nights.first == StayNight("2027-12-30"))
        #expect(range.nights.contains(StayNight("2028-02-29")!))
        #expect(range.nights.last == StayNight("2028-03-01"))
    }
}
