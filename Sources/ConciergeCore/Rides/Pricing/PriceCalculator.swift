public import Foundation

/// The price of one vehicle class for one ride.
public struct ClassPrice: Sendable, Equatable {
    /// Final price in cents, a multiple of 5.
    public let priceCents: Int
    public let vehicle: String
    public let maxPassengers: Int

    public init(priceCents: Int, vehicle: String, maxPassengers: Int) {
        self.priceCents = priceCents
        self.vehicle = vehicle
        self.maxPassengers = maxPassengers
    }
}

/// One adjustment that applied to a quote; the same for every class.
public struct PriceAdjustment: Sendable, Equatable {
    /// `"night"`, `"weekend"`, `"holiday"` or `"airport_pickup"`.
    public let code: String
    /// For people: `"Night (22:00–06:00)"`, `"Weekend"`, `"Public holiday: Easter Monday"`, `"Airport pickup"`.
    public let label: String
    /// The surcharge in percent; nil for the fixed fee.
    public let percent: Int?
    /// The fixed fee in cents; nil for percentage surcharges.
    public let amountCents: Int?

    public init(code: String, label: String, percent: Int?, amountCents: Int?) {
        self.code = code
        self.label = label
        self.percent = percent
        self.amountCents = amountCents
    }
}

/// Prices for every class, and the adjustments that went into them.
public struct PriceQuote: Sendable, Equatable {
    public let prices: [VehicleClass: ClassPrice]
    /// Only the adjustments that applied, in the order night, weekend, holiday, airport pickup.
    public let adjustments: [PriceAdjustment]

    public init(prices: [VehicleClass: ClassPrice], adjustments: [PriceAdjustment]) {
        self.prices = prices
        self.adjustments = adjustments
    }
}

/// Computes ride prices from a `Tariff`. Pure: the pickup time comes in as a parameter.
///
/// For each vehicle class, in integer arithmetic (exact fractions of a cent, never `Double`):
///
/// 1. **Fare.** `metered = baseFare + perKm × distanceMeters / 1000 + perMinute × minutes`,
///    where the distance counts to the metre (an exact fraction of a kilometre) and `minutes` is
///    the duration rounded **up** to whole minutes (61 s bill 2 minutes). `fare = max(minimumFare,
///    metered)`. Negative distances or durations count as zero.
/// 2. **Percentage surcharges**, judged from the pickup instant in the tariff's time zone
///    (Europe/Zurich by default; daylight saving time is followed, so 22:00 means 22:00 on the
///    local wall clock in summer and in winter):
///    - *night* when the local hour is in `nightStartHour..<nightEndHour`, wrapping past midnight
///      (22 and 6: from 22:00:00 up to, not including, 06:00:00);
///    - *weekend* on a local Saturday or Sunday;
///    - *holiday* on a Swiss public holiday (`SwissHolidays`) by local date.
///    Weekend and holiday do **not** stack: when both apply, only the higher percentage counts
///    (on a tie, the holiday). Night stacks with either. The percentages that apply are
///    **added** (night 20 + weekend 10 = +30 %), and the sum applies once, to the fare,
///    minimum included: `fare × (100 + total) / 100`.
/// 3. **Airport pickup fee.** When the pickup is an airport, the fixed fee is added after the
///    percentages (it is never surcharged).
/// 4. **Rounding.** The exact result is rounded once, to the nearest 5 Rappen; an exact half
///    (2.5 Rappen above a multiple of 5) rounds up. So 95.02 → 95.00, 95.025 → 95.05,
///    95.03 → 95.05, 95.07 → 95.05, 95.075 → 95.10, 95.08 → 95.10.
///
/// The quote lists the adjustments that changed the price, in the order night, weekend,
/// holiday, airport pickup; one of weekend/holiday at most, and none whose percentage or fee is 0.
public struct PriceCalculator: Sendable {
    public let tariff: Tariff
    private let calendar: Calendar

    /// `tariff` should be valid (`Tariff.load` and `Tariff.validate` check); an unknown time zone
    /// or a missing class is a programming error and stops the process.
    public init(tariff: Tariff) {
        guard let timeZone = TimeZone(identifier: tariff.timeZone) else {
            preconditionFailure("Tariff time zone \"\(tariff.timeZone)\" is unknown; validate the tariff first")
        }
        precondition(
            VehicleClass.allCases.allSatisfy { tariff.classes[$0] != nil },
            "Tariff lacks a vehicle class; validate the tariff first")
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.tariff = tariff
        self.calendar = calendar
    }

    public func quote(distanceMeters: Int, durationSeconds: Int, pickup: Date, pickupKind: PlaceKind) -> PriceQuote {
        let adjustments = adjustments(pickup: pickup, pickupKind: pickupKind)
        let percent = adjustments.compactMap(\.percent).reduce(0, +)
        let fee = adjustments.compactMap(\.amountCents).reduce(0, +)
        let meters = max(0, distanceMeters)
        let minutes = (max(0, durationSeconds) + 59) / 60

        var prices: [VehicleClass: ClassPrice] = [:]
        for (vehicleClass, classTariff) in tariff.classes {
            // Thousandths of a cent, so the per-metre share of the per-km price stays exact.
            let meteredMilli =
                classTariff.baseFareCents * 1000 + classTariff.perKmCents * meters
                + classTariff.perMinuteCents * minutes * 1000
            let fareMilli = max(classTariff.minimumFareCents * 1000, meteredMilli)
            // Hundred-thousandths of a cent: exact after applying a whole percentage.
            let total = fareMilli * (100 + percent) + fee * 100_000
            let fiveRappen = 5 * 100_000
            let roundedCents = (total + fiveRappen / 2) / fiveRappen * 5
            prices[vehicleClass] = ClassPrice(
                priceCents: roundedCents, vehicle: classTariff.vehicle, maxPassengers: classTariff.maxPassengers)
        }
        return PriceQuote(prices: prices, adjustments: adjustments)
    }

    /// The adjustments for a pickup at `pickup` from a place of kind `pickupKind`, as `quote`
    /// applies and lists them.
    public func adjustments(pickup: Date, pickupKind: PlaceKind) -> [PriceAdjustment] {
        let local = calendar.dateComponents([.year, .month, .day, .hour, .weekday], from: pickup)
        guard let year = local.year, let month = local.month, let day = local.day, let hour = local.hour,
            let weekday = local.weekday
        else {
            preconditionFailure("The Gregorian calendar gave no local date for \(pickup)")
        }
        var result: [PriceAdjustment] = []

        let start = tariff.nightStartHour
        let end = tariff.nightEndHour
        let isNight = start > end ? (hour >= start || hour < end) : (hour >= start && hour < end)
        if isNight, tariff.nightPercent > 0 {
            result.append(
                PriceAdjustment(
                    code: "night", label: "Night (\(Self.clock(start))–\(Self.clock(end)))",
                    percent: tariff.nightPercent, amountCents: nil))
        }

        // Gregorian weekdays: 1 is Sunday, 7 is Saturday.
        let weekend: PriceAdjustment? =
            (weekday == 1 || weekday == 7) && tariff.weekendPercent > 0
            ? PriceAdjustment(code: "weekend", label: "Weekend", percent: tariff.weekendPercent, amountCents: nil)
            : nil
        let holiday: PriceAdjustment? = SwissHolidays.holiday(on: LocalDate(year: year, month: month, day: day))
            .flatMap { holiday in
                tariff.holidayPercent > 0
                    ? PriceAdjustment(
                        code: "holiday", label: "Public holiday: \(holiday.name)", percent: tariff.holidayPercent,
                        amountCents: nil)
                    : nil
            }
        switch (weekend, holiday) {
        case (let weekend?, let holiday?):
            result.append(tariff.weekendPercent > tariff.holidayPercent ? weekend : holiday)
        case (let weekend?, nil):
            result.append(weekend)
        case (nil, let holiday?):
            result.append(holiday)
        case (nil, nil):
            break
        }

        if pickupKind == .airport, tariff.airportPickupFeeCents > 0 {
            result.append(
                PriceAdjustment(
                    code: "airport_pickup", label: "Airport pickup", percent: nil,
                    amountCents: tariff.airportPickupFeeCents))
        }
        return result
    }

    private static func clock(_ hour: Int) -> String {
        (hour < 10 ? "0" : "") + "\(hour):00"
    }
}
