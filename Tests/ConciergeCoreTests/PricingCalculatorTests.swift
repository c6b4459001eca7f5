import ConciergeCore
import Foundation
import Testing

/// An instant from an ISO 8601 string with an explicit offset; tests never read the clock.
private func at(_ iso: String) throws -> Date {
    try Date(iso, strategy: .iso8601)
}

/// A tariff with the same prices for every class and no surcharges unless asked for.
private func flatTariff(
    base: Int, perKm: Int = 0, perMinute: Int = 0, minimum: Int = 0, night: Int = 0, weekend: Int = 0,
    holiday: Int = 0, airportFee: Int = 0, nightStart: Int = 22, nightEnd: Int = 6
) -> Tariff {
    let prices = ClassTariff(
        baseFareCents: base, perKmCents: perKm, perMinuteCents: perMinute, minimumFareCents: minimum,
        vehicle: "Test car", maxPassengers: 3)
    return Tariff(
        classes: [.business: prices, .first: prices, .xl: prices], nightPercent: night, nightStartHour: nightStart,
        nightEndHour: nightEnd, weekendPercent: weekend, holidayPercent: holiday, airportPickupFeeCents: airportFee)
}

@Suite struct PricingCalculatorTests {
    let standard = PriceCalculator(tariff: .standard)

    /// 12.4 km and 21 minutes, the contract's example ride.
    private func contractRide(
        at pickup: Date, from kind: PlaceKind = .address, calculator: PriceCalculator? = nil
    ) -> PriceQuote {
        (calculator ?? standard).quote(distanceMeters: 12_400, durationSeconds: 1_260, pickup: pickup, pickupKind: kind)
    }

    private func cents(_ quote: PriceQuote) -> [VehicleClass: Int] {
        quote.prices.mapValues(\.priceCents)
    }

    private func codes(_ pickup: Date, _ kind: PlaceKind = .address) -> [String] {
        standard.adjustments(pickup: pickup, pickupKind: kind).map(\.code)
    }

    // MARK: Fare

    @Test func aWeekdayDaytimeRideIsTheMeteredFareOrTheMinimum() throws {
        // Wednesday 14:00 in Zurich.
        let quote = contractRide(at: try at("2025-01-15T13:00:00Z"))
        // business 2000 + 350 × 12.4 + 100 × 21 = 8440
        // first 3000 + 480 × 12.4 + 130 × 21 = 11682 → minimum 12000
        // xl 2500 + 420 × 12.4 + 115 × 21 = 10123 → 10125
        #expect(cents(quote) == [.business: 8440, .first: 12_000, .xl: 10_125])
        #expect(quote.adjustments.isEmpty)
        #expect(
            quote.prices[.business]
                == ClassPrice(priceCents: 8440, vehicle: "Mercedes E-Class or similar", maxPassengers: 3))
        #expect(quote.prices[.first]?.vehicle == "Mercedes S-Class or similar")
        #expect(
            quote.prices[.xl]
                == ClassPrice(priceCents: 10_125, vehicle: "Mercedes V-Class or similar", maxPassengers: 7))
    }

    @Test func aShortRideCostsTheMinimumFare() throws {
        let quote = standard.quote(
            distanceMeters: 1_000, durationSeconds: 180, pickup: try at("2025-01-15T13:00:00Z"), pickupKind: .address)
        #expect(cents(quote) == [.business: 8000, .first: 12_000, .xl: 10_000])
    }

    @Test func anEmptyOrNegativeRouteCostsTheMinimumFare() throws {
        let pickup = try at("2025-01-15T13:00:00Z")
        for (meters, seconds) in [(0, 0), (-5_000, -600)] {
            let quote = standard.quote(
                distanceMeters: meters, durationSeconds: seconds, pickup: pickup, pickupKind: .city)
            #expect(cents(quote) == [.business: 8000, .first: 12_000, .xl: 10_000])
        }
    }

    @Test(arguments: [(1_200, 20), (1_201, 21), (1_259, 21), (1_260, 21), (1_261, 22), (1, 1), (59, 1), (60, 1)])
    func startedMinutesAreBilledAsWholeMinutes(seconds: Int, billedMinutes: Int) throws {
        let calculator = PriceCalculator(tariff: flatTariff(base: 0, perMinute: 100))
        let quote = calculator.quote(
            distanceMeters: 0, durationSeconds: seconds, pickup: try at("2025-01-15T13:00:00Z"), pickupKind: .address)
        #expect(quote.prices[.business]?.priceCents == billedMinutes * 100)
    }

    @Test func distanceIsProratedToTheMetre() throws {
        // 350 per km × 12.345 km = 4320.75; + 2000 = 6320.75 → 6320.
        let calculator = PriceCalculator(tariff: flatTariff(base: 2000, perKm: 350))
        let quote = calculator.quote(
            distanceMeters: 12_345, durationSeconds: 0, pickup: try at("2025-01-15T13:00:00Z"), pickupKind: .address)
        #expect(quote.prices[.business]?.priceCents == 6320)
    }

    // MARK: Rounding

    /// The exact amount is rounded once to the nearest 5 Rappen; an exact half rounds up.
    @Test(arguments: [
        (9500, 0, 9500), (9501, 0, 9500), (9502, 0, 9500), (9502, 400, 9500), (9502, 500, 9505), (9503, 0, 9505),
        (9504, 0, 9505), (9506, 0, 9505), (9507, 0, 9505), (9507, 499, 9505), (9507, 500, 9510), (9508, 0, 9510),
        (9509, 0, 9510), (9510, 0, 9510), (0, 0, 0), (2, 0, 0), (3, 0, 5),
    ])
    func pricesAreRoundedToTheNearestFiveRappenHalvesUp(base: Int, meters: Int, expected: Int) throws {
        // 1 cent per km: `meters` adds meters/1000 of a cent.
        let calculator = PriceCalculator(tariff: flatTariff(base: base, perKm: 1))
        let quote = calculator.quote(
            distanceMeters: meters, durationSeconds: 0, pickup: try at("2025-01-15T13:00:00Z"), pickupKind: .address)
        #expect(quote.prices[.business]?.priceCents == expected)
    }

    @Test func roundingHappensOnceAfterThePercentages() throws {
        // Saturday 12:00 in Zurich: weekend +10 %.
        let pickup = try at("2025-01-18T11:00:00Z")
        let withTenPercent = { (base: Int) in
            PriceCalculator(tariff: flatTariff(base: base, weekend: 10))
                .quote(distanceMeters: 0, durationSeconds: 0, pickup: pickup, pickupKind: .address)
                .prices[.business]?.priceCents
        }
        // 9522 × 1.1 = 10474.2 → 10475; rounding the fare first (9520 × 1.1 = 10472) would give 10470.
        #expect(withTenPercent(9522) == 10_475)
        // 9502 × 1.1 = 10452.2 → 10450; 9503 × 1.1 = 10453.3 → 10455.
        #expect(withTenPercent(9502) == 10_450)
        #expect(withTenPercent(9503) == 10_455)
        // 9525 × 1.1 = 10477.5, an exact half → 10480.
        #expect(withTenPercent(9525) == 10_480)
    }

    // MARK: Combining adjustments

    @Test func aSaturdayNightRideAddsNightAndWeekend() throws {
        // Saturday 23:30 in Zurich (CET): +20 % + 10 % = +30 %, applied once.
        let quote = contractRide(at: try at("2026-03-28T22:30:00Z"))
        // business 8440 × 1.3 = 10972 → 10970; first 12000 × 1.3 = 15600; xl 10123 × 1.3 = 13159.9 → 13160.
        #expect(cents(quote) == [.business: 10_970, .first: 15_600, .xl: 13_160])
        #expect(
            quote.adjustments == [
                PriceAdjustment(code: "night", label: "Night (22:00–06:00)", percent: 20, amountCents: nil),
                PriceAdjustment(code: "weekend", label: "Weekend", percent: 10, amountCents: nil),
            ])
    }

    @Test func theSurchargeAppliesToTheMinimumFare() throws {
        // Wednesday 23:00 in Zurich: night only.
        let quote = standard.quote(
            distanceMeters: 1_000, durationSeconds: 60, pickup: try at("2025-01-15T22:00:00Z"), pickupKind: .address)
        #expect(cents(quote) == [.business: 9600, .first: 14_400, .xl: 12_000])
        #expect(quote.adjustments.map(\.code) == ["night"])
    }

    @Test func aHolidayOnASundayIsOneSurchargeTheHigherOne() throws {
        // Sunday 1 August 2027, 12:00 in Zurich: holiday 15 % beats weekend 10 %.
        let quote = contractRide(at: try at("2027-08-01T10:00:00Z"))
        // 8440 × 1.15 = 9706 → 9705.
        #expect(quote.prices[.business]?.priceCents == 9705)
        #expect(
            quote.adjustments == [
                PriceAdjustment(
                    code: "holiday", label: "Public holiday: Swiss National Day", percent: 15, amountCents: nil)
            ])
    }

    @Test func aHigherWeekendPercentageWinsOverTheHoliday() throws {
        var tariff = Tariff.standard
        tariff.weekendPercent = 25
        let quote = contractRide(at: try at("2027-08-01T10:00:00Z"), calculator: PriceCalculator(tariff: tariff))
        // 8440 × 1.25 = 10550.
        #expect(quote.prices[.business]?.priceCents == 10_550)
        #expect(
            quote.adjustments == [PriceAdjustment(code: "weekend", label: "Weekend", percent: 25, amountCents: nil)])
    }

    @Test func onATieTheHolidayIsListed() throws {
        var tariff = Tariff.standard
        tariff.weekendPercent = 15
        // Saturday 26 December 2026, 12:00 in Zurich.
        let quote = contractRide(at: try at("2026-12-26T11:00:00Z"), calculator: PriceCalculator(tariff: tariff))
        #expect(quote.prices[.business]?.priceCents == 9705)
        #expect(quote.adjustments.map(\.label) == ["Public holiday: St. Stephen's Day"])
    }

    @Test func aHolidayNightAddsNightAndHoliday() throws {
        // Sunday 25 December 2022, 05:00 in Zurich: night 20 + holiday 15 = +35 %; no weekend.
        let quote = contractRide(at: try at("2022-12-25T04:00:00Z"))
        // 8440 × 1.35 = 11394 → 11395.
        #expect(quote.prices[.business]?.priceCents == 11_395)
        #expect(quote.adjustments.map(\.code) == ["night", "holiday"])
    }

    @Test func aWeekdayHolidayIsTheHolidaySurchargeAlone() throws {
        // Easter Monday 2025, 10:00 in Zurich (CEST).
        let quote = contractRide(at: try at("2025-04-21T08:00:00Z"))
        #expect(quote.prices[.business]?.priceCents == 9705)
        #expect(
            quote.adjustments == [
                PriceAdjustment(code: "holiday", label: "Public holiday: Easter Monday", percent: 15, amountCents: nil)
            ])
    }

    @Test func theHolidayIsJudgedByTheLocalDate() throws {
        // 22:30 UTC on 31 July 2025 is already 00:30 on 1 August (a Friday) in Zurich.
        #expect(codes(try at("2025-07-31T22:30:00Z")) == ["night", "holiday"])
        // 21:30 UTC is still 23:30 on 31 July.
        #expect(codes(try at("2025-07-31T21:30:00Z")) == ["night"])
        // New Year: 23:30 UTC on 31 December 2026 is 00:30 on Friday 1 January 2027 (CET).
        #expect(codes(try at("2026-12-31T23:30:00Z")) == ["night", "holiday"])
        #expect(codes(try at("2026-12-31T22:59:59Z")) == ["night"])
        // Berchtoldstag 2027 is a Saturday: one surcharge, the holiday.
        #expect(codes(try at("2027-01-02T12:00:00Z")) == ["holiday"])
    }

    @Test func theAirportFeeIsAddedAfterThePercentages() throws {
        // Saturday 23:30 in Zurich, pickup at the airport.
        let quote = contractRide(at: try at("2026-03-28T22:30:00Z"), from: .airport)
        // business 8440 × 1.3 + 1000 = 11972 → 11970 (not (8440 + 1000) × 1.3 = 12272).
        // first 12000 × 1.3 + 1000 = 16600; xl 10123 × 1.3 + 1000 = 14159.9 → 14160.
        #expect(cents(quote) == [.business: 11_970, .first: 16_600, .xl: 14_160])
        #expect(
            quote.adjustments == [
                PriceAdjustment(code: "night", label: "Night (22:00–06:00)", percent: 20, amountCents: nil),
                PriceAdjustment(code: "weekend", label: "Weekend", percent: 10, amountCents: nil),
                PriceAdjustment(code: "airport_pickup", label: "Airport pickup", percent: nil, amountCents: 1000),
            ])
    }

    @Test func theAirportFeeComesOnTopOfTheMinimumFare() throws {
        let quote = standard.quote(
            distanceMeters: 1_000, durationSeconds: 180, pickup: try at("2025-01-15T13:00:00Z"), pickupKind: .airport)
        #expect(cents(quote) == [.business: 9000, .first: 13_000, .xl: 11_000])
        #expect(quote.adjustments.map(\.code) == ["airport_pickup"])
    }

    @Test(arguments: [PlaceKind.station, .city, .address, .poi])
    func onlyAnAirportPickupPaysTheFee(kind: PlaceKind) throws {
        #expect(codes(try at("2025-01-15T13:00:00Z"), kind).isEmpty)
    }

    @Test func surchargesOfZeroAreNeitherAppliedNorListed() throws {
        let calculator = PriceCalculator(tariff: flatTariff(base: 10_000))
        // Saturday night on Christmas Day, at the airport.
        let quote = calculator.quote(
            distanceMeters: 0, durationSeconds: 0, pickup: try at("2027-12-25T22:30:00Z"), pickupKind: .airport)
        #expect(quote.prices[.business]?.priceCents == 10_000)
        #expect(quote.adjustments.isEmpty)
    }

    @Test func aWindowThatDoesNotWrapPastMidnightIsHonoured() throws {
        let calculator = PriceCalculator(tariff: flatTariff(base: 10_000, night: 20, nightStart: 0, nightEnd: 5))
        let adjustments = { (iso: String) in
            try calculator.adjustments(pickup: at(iso), pickupKind: .address)
        }
        // Wednesday in winter: 23:30, 00:00, 04:59:59 and 05:00 in Zurich.
        #expect(try adjustments("2025-01-15T22:30:00Z").isEmpty)
        #expect(
            try adjustments("2025-01-15T23:00:00Z") == [
                PriceAdjustment(code: "night", label: "Night (00:00–05:00)", percent: 20, amountCents: nil)
            ])
        #expect(try adjustments("2025-01-16T03:59:59Z").map(\.code) == ["night"])
        #expect(try adjustments("2025-01-16T04:00:00Z").isEmpty)
    }

    // MARK: Local time and daylight saving time

    @Test(arguments: [
        // Winter (CET, UTC+1), Wednesday 14 January 2026.
        ("2026-01-14T20:59:59Z", false),  // 21:59:59
        ("2026-01-14T21:00:00Z", true),  // 22:00:00
        ("2026-01-14T04:59:59Z", true),  // 05:59:59
        ("2026-01-14T05:00:00Z", false),  // 06:00:00
        // Summer (CEST, UTC+2), Wednesday 15 July 2026.
        ("2026-07-15T19:59:59Z", false),  // 21:59:59
        ("2026-07-15T20:00:00Z", true),  // 22:00:00
        ("2026-07-15T03:59:59Z", true),  // 05:59:59
        ("2026-07-15T04:00:00Z", false),  // 06:00:00
        ("2026-07-15T12:00:00Z", false),  // 14:00
        ("2026-07-15T23:00:00Z", true),  // 01:00 on Thursday
    ])
    func nightStartsAtTwentyTwoAndEndsAtSixLocalTimeSummerAndWinter(instant: String, isNight: Bool) throws {
        #expect(codes(try at(instant)) == (isNight ? ["night"] : []))
    }

    @Test(arguments: [
        // Spring forward, Sunday 29 March 2026: 02:00 CET becomes 03:00 CEST at 01:00 UTC.
        ("2026-03-29T00:59:59Z", ["night", "weekend"]),  // 01:59:59 CET
        ("2026-03-29T01:00:00Z", ["night", "weekend"]),  // 03:00:00 CEST
        ("2026-03-29T01:30:00Z", ["night", "weekend"]),  // 03:30 CEST
        ("2026-03-29T03:59:59Z", ["night", "weekend"]),  // 05:59:59 CEST
        ("2026-03-29T04:00:00Z", ["weekend"]),  // 06:00 CEST
        ("2026-03-29T04:30:00Z", ["weekend"]),  // 06:30 CEST (would be 05:30 in CET)
        ("2026-03-29T19:59:59Z", ["weekend"]),  // 21:59:59 CEST
        ("2026-03-29T20:00:00Z", ["night", "weekend"]),  // 22:00 CEST
        ("2026-03-29T21:59:59Z", ["night", "weekend"]),  // 23:59:59 Sunday
        ("2026-03-29T22:00:00Z", ["night"]),  // 00:00 Monday
        // Fall back, Sunday 25 October 2026: 03:00 CEST becomes 02:00 CET at 01:00 UTC.
        ("2026-10-24T19:59:59Z", ["weekend"]),  // Saturday 21:59:59 CEST
        ("2026-10-24T20:00:00Z", ["night", "weekend"]),  // Saturday 22:00 CEST
        ("2026-10-25T00:30:00Z", ["night", "weekend"]),  // 02:30 CEST
        ("2026-10-25T01:30:00Z", ["night", "weekend"]),  // 02:30 CET, the second time
        ("2026-10-25T04:30:00Z", ["night", "weekend"]),  // 05:30 CET (would be 06:30 in CEST)
        ("2026-10-25T04:59:59Z", ["night", "weekend"]),  // 05:59:59 CET
        ("2026-10-25T05:00:00Z", ["weekend"]),  // 06:00 CET
        ("2026-10-25T20:59:59Z", ["weekend"]),  // 21:59:59 CET
        ("2026-10-25T21:00:00Z", ["night", "weekend"]),  // 22:00 CET
        ("2026-10-25T23:00:00Z", ["night"]),  // 00:00 Monday
    ])
    func adjustmentsFollowTheZurichWallClockAcrossDaylightSavingChanges(instant: String, expected: [String]) throws {
        #expect(codes(try at(instant)) == expected)
    }

    @Test(arguments: [
        ("2026-03-27T22:59:59Z", ["night"]),  // Friday 23:59:59 CET
        ("2026-03-27T23:00:00Z", ["night", "weekend"]),  // Saturday 00:00 CET
        ("2026-03-28T11:00:00Z", ["weekend"]),  // Saturday 12:00
        ("2026-07-17T21:59:59Z", ["night"]),  // Friday 23:59:59 CEST
        ("2026-07-17T22:00:00Z", ["night", "weekend"]),  // Saturday 00:00 CEST
        ("2026-07-19T21:59:59Z", ["night", "weekend"]),  // Sunday 23:59:59 CEST
        ("2026-07-19T22:00:00Z", ["night"]),  // Monday 00:00 CEST
    ])
    func theWeekendIsTheLocalSaturdayAndSunday(instant: String, expected: [String]) throws {
        #expect(codes(try at(instant)) == expected)
    }

    @Test func theSameInstantWrittenWithAnOffsetPricesTheSame() throws {
        let utc = contractRide(at: try at("2026-03-28T22:30:00Z"))
        let local = contractRide(at: try at("2026-03-28T23:30:00+01:00"))
        #expect(utc == local)
    }

    @Test func anotherTimeZoneMovesTheNight() throws {
        var tariff = Tariff.standard
        tariff.timeZone = "America/New_York"
        let calculator = PriceCalculator(tariff: tariff)
        // Wednesday 15 January 2025, 18:00 in New York is 23:00 UTC and 00:00 in Zurich.
        let pickup = try at("2025-01-15T23:00:00Z")
        #expect(calculator.adjustments(pickup: pickup, pickupKind: .address).isEmpty)
        #expect(codes(pickup) == ["night"])
    }
}
