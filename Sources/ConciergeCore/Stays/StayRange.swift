public import Foundation

/// The nights of a stay: from the check-in date up to, not including, the check-out date, in
/// the hotel's time zone.
public struct StayRange: Sendable, Equatable {
    public let checkIn: StayNight
    public let checkOut: StayNight
    public let nights: [StayNight]

    /// Checks a requested range against the hotel's rules, naming the field at fault:
    /// check-in today or later and at most `maxDaysAhead` ahead, check-out after check-in,
    /// 1 to `maxNights` nights.
    public init(
        checkIn: StayNight, checkOut: StayNight, today: StayNight, hotel: HotelSettings,
        fields: (checkIn: String, checkOut: String) = ("checkIn", "checkOut")
    ) throws(StaysValidationError) {
        // Whole dates of the Gregorian calendar: counted as days, with no time zone to consult.
        guard checkIn >= today else {
            throw StaysValidationError([fields.checkIn: "Check-in must be today (\(today)) or later."])
        }
        guard checkIn.dayNumber - today.dayNumber <= hotel.maxDaysAhead else {
            throw StaysValidationError(
                [fields.checkIn: "Reservations open \(hotel.maxDaysAhead) days ahead; choose an earlier check-in."])
        }
        guard checkOut > checkIn else {
            throw StaysValidationError([fields.checkOut: "Check-out must be after check-in."])
        }
        let count = checkOut.dayNumber - checkIn.dayNumber
        guard count <= hotel.maxNights else {
            throw StaysValidationError([fields.checkOut: "A stay is at most \(hotel.maxNights) nights."])
        }
        self.checkIn = checkIn
        self.checkOut = checkOut
        self.nights = (0..<count).map { StayNight(dayNumber: checkIn.dayNumber + $0) }
    }

    /// A date as the seed sends it: epoch milliseconds, or `YYYY-MM-DD`. Nil when it is neither.
    public static func night(_ text: String, in calendar: Calendar) -> StayNight? {
        if let night = StayNight(text) { return night }
        guard !text.isEmpty, text.count <= 15, text.allSatisfy({ $0.isASCII && $0.isNumber }),
            let millis = Int64(text)
        else { return nil }
        return night(millis: millis, in: calendar)
    }

    /// The local date of an epoch-millisecond instant; nil outside years 1970–9999.
    public static func night(millis: Int64, in calendar: Calendar) -> StayNight? {
        guard millis >= 0, millis < 253_402_300_800_000 else { return nil }
        return StayNight(Date(timeIntervalSince1970: Double(millis) / 1000), in: calendar)
    }
}
