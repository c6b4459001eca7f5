import ConciergeCore
import Foundation
import Testing

/// The stays rules as plain values: nights in the hotel's zone, the range rules, rates with the
/// weekend and season rules, taxes, closures and minimum stays, and the cancellation policy.
@Suite struct StaysRulesTests {
    static let hotel = HotelSettings.demo
    static let today = StayNight("2027-01-15")!
    static let double = hotel.roomType(id: 2)!

    static func range(_ from: String, _ to: String) throws -> StayRange {
        try StayRange(checkIn: StayNight(from)!, checkOut: StayNight(to)!, today: today, hotel: hotel)
    }

    @Test func anInstantLateInTheEveningInZurichIsThatDaysNight() {
        // 2027-01-31 23:30 UTC is already 1 February in Zurich.
        let millis: Int64 = 1_801_438_200_000
        #expect(StayRange.night(millis: millis, in: Self.hotel.calendar) == StayNight("2027-02-01"))
        #expect(StayRange.night("2027-02-01", in: Self.hotel.calendar) == StayNight("2027-02-01"))
        #expect(StayRange.night("2027-02-29", in: Self.hotel.calendar) == nil)
        #expect(StayRange.night("-5", in: Self.hotel.calendar) == nil)
    }

    @Test func rangesMustStartTodayOrLaterRunForwardAndLastAtMostThirtyNights() throws {
        #expect(try Self.range("2027-01-15", "2027-01-16").nights.count == 1)
        #expect(throws: StaysValidationError.self) { try Self.range("2027-01-14", "2027-01-16") }
        #expect(throws: StaysValidationError.self) { try Self.range("2027-02-03", "2027-02-01") }
        #expect(throws: StaysValidationError.self) { try Self.range("2027-02-01", "2027-02-01") }
        #expect(try Self.range("2027-02-01", "2027-03-03").nights.count == 30)
        #expect(throws: StaysValidationError.self) { try Self.range("2027-02-01", "2027-03-04") }
        #expect(throws: StaysValidationError.self) { try Self.range("2028-01-16", "2028-01-17") }
    }

    @Test func weekendNightsCostFifteenPercentMoreAndCityTaxIsPerPersonPerNight() throws {
        // Thursday, Friday and Saturday nights.
        let quote = StayQuote(
            roomType: Self.double, range: try Self.range("2027-02-04", "2027-02-07"), people: 2, hotel: Self.hotel)
        #expect(quote.nightlyCents == [18_000, 20_700, 20_700])
        #expect(quote.cityTaxCents == 3 * 2 * 250)
        #expect(quote.totalCents == 59_400 + 1_500)
        #expect(quote.vatIncludedCents == 2_175)
        #expect(quote.averageNightlyCents == 19_800)
    }

    @Test func aSeasonAddsToTheWeekendAndClosuresAndMinimumStaysRefuseARoom() throws {
        var hotel = HotelSettings.demo
        hotel.seasons = [HotelSettings.Season(name: "Carnival", from: "2027-02-05", to: "2027-02-06", percent: 50)]
        hotel.closures = [
            HotelSettings.Closure(from: "2027-03-01", to: "2027-03-02", roomTypeIds: [4], reason: "renovation")
        ]
        let range = try StayRange(
            checkIn: StayNight("2027-02-04")!, checkOut: StayNight("2027-02-07")!, today: Self.today, hotel: hotel)
        #expect(
            StayQuote(roomType: Self.double, range: range, people: 1, hotel: hotel).nightlyCents == [
                18_000, 29_700, 29_700,
            ])
        let closed = try StayRange(
            checkIn: StayNight("2027-02-28")!, checkOut: StayNight("2027-03-02")!, today: Self.today, hotel: hotel)
        #expect(hotel.refusal(of: hotel.roomType(id: 4)!, range: closed)?.contains("renovation") == true)
        #expect(hotel.refusal(of: Self.double, range: closed) == nil)
        let oneNight = try StayRange(
            checkIn: StayNight("2027-02-01")!, checkOut: StayNight("2027-02-02")!, today: Self.today, hotel: hotel)
        #expect(hotel.refusal(of: hotel.roomType(id: 3)!, range: oneNight) != nil)
    }

    @Test func cancellingIsFreeUntilTheWindowThenTheFirstNightAndNeverAfterCheckIn() throws {
        let policy = StayCancellationPolicy(freeHours: 24)
        let checkIn = Date(timeIntervalSince1970: 1_801_000_000)
        #expect(
            try policy.outcome(checkInAt: checkIn, firstNightCents: 100, now: checkIn.addingTimeInterval(-24 * 3600))
                == .free)
        #expect(
            try policy.outcome(checkInAt: checkIn, firstNightCents: 100, now: checkIn.addingTimeInterval(-3600))
                == .firstNightCharged(cents: 100))
        #expect(throws: ConciergeError.self) {
            try policy.outcome(checkInAt: checkIn, firstNightCents: 100, now: checkIn)
        }
    }

    @Test func theHotelFileNeedsOnlyWhatDiffersAndRefusesNonsense() throws {
        let partial = try JSONDecoder().decode(
            HotelSettings.self, from: Data(#"{"name": "Inn", "vatPercent": 8.1}"#.utf8))
        #expect(partial.name == "Inn" && partial.vatPercent == 8.1 && partial.roomTypes.count == 4)
        var broken = HotelSettings.demo
        broken.timeZone = "Mars/Olympus"
        #expect(throws: ConciergeError.self) { try broken.validate() }
        #expect(throws: Never.self) { try HotelSettings.demo.validate() }
    }
}
