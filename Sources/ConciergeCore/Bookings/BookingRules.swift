public import Foundation

/// The rules a ride booking must satisfy, checked before any price is taken or payment made.
public struct BookingRules: Sendable, Equatable {
    /// Minimum hours between now and the pickup (CONCIERGE_MIN_ADVANCE_HOURS).
    public var minimumAdvanceHours = 48
    /// Furthest pickup, in days.
    public var maximumAdvanceDays = 365
    /// How long a quote holds before an unpaid booking expires (CONCIERGE_QUOTE_TTL_SECONDS).
    public var quoteLifetimeSeconds = 1800
    /// Free cancellation until this many hours before pickup.
    public var freeCancellationHours = 24
    /// Bookings awaiting payment one customer may have at once (CONCIERGE_MAX_UNPAID_BOOKINGS):
    /// each opens a payment at the provider and takes a reference, so a flood costs the operator.
    public var maxUnpaidBookings = 3
    /// Bookings one customer may make per hour (CONCIERGE_MAX_BOOKINGS_PER_HOUR).
    public var maxBookingsPerHour = 10

    public init() {}

    public func checkPickupTime(_ pickup: Date, now: Date) throws(ConciergeError) {
        let earliest = now.addingTimeInterval(Double(minimumAdvanceHours) * 3600)
        guard pickup >= earliest else {
            throw ConciergeError(
                .invalidInput, code: "pickup_too_soon",
                message:
                    "Rides must be booked at least \(minimumAdvanceHours) hours ahead. Choose a pickup time after \(ZurichTime.describe(earliest))."
            )
        }
        guard pickup <= now.addingTimeInterval(Double(maximumAdvanceDays) * 86_400) else {
            throw ConciergeError(
                .invalidInput, code: "pickup_too_far",
                message: "Rides can be booked at most \(maximumAdvanceDays) days ahead. Choose an earlier pickup time.")
        }
    }

    public static func checkPassengers(_ passengers: Int, capacity: Int, vehicleClass: VehicleClass)
        throws(ConciergeError)
    {
        guard passengers >= 1 else {
            throw ConciergeError(
                .invalidInput, code: "invalid_passengers", message: "At least one passenger must travel.")
        }
        guard passengers <= capacity else {
            throw ConciergeError(
                .invalidInput, code: "too_many_passengers",
                message:
                    "The \(vehicleClass.rawValue) class seats at most \(capacity) passengers. Choose the xl class or fewer passengers."
            )
        }
    }

    /// "lx 123", "LX-123", "lx0123" → "LX123": two-character airline code (letters or digits, at
    /// least one letter) plus an optional letter, then 1–4 digits and an optional suffix letter.
    public static func normalizedFlightNumber(_ raw: String?) throws(ConciergeError) -> String? {
        guard let raw else { return nil }
        let compact = raw.uppercased().filter { !$0.isWhitespace && $0 != "-" }
        guard !compact.isEmpty else { return nil }
        let characters = Array(compact)
        let invalid = ConciergeError(
            .invalidInput, code: "invalid_flight_number",
            message:
                "'\(raw.prefix(20))' is not a flight number. Write it like LX123 (airline code and number), or leave it out."
        )
        guard characters.count >= 3, characters.count <= 8,
            characters.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
        else { throw invalid }
        var airline = String(characters.prefix(2))
        var rest = characters.dropFirst(2)
        if let third = rest.first, third.isLetter, rest.dropFirst().first?.isNumber == true {
            airline.append(third)
            rest = rest.dropFirst()
        }
        guard airline.contains(where: \.isLetter) else { throw invalid }
        var digits = rest.prefix { $0.isNumber }
        let suffix = rest.dropFirst(digits.count)
        guard (1...4).contains(digits.count), suffix.count <= 1, suffix.allSatisfy(\.isLetter) else { throw invalid }
        while digits.count > 1, digits.first == "0" { digits = digits.dropFirst() }
        return airline + String(digits) + String(suffix)
    }
}

/// Times as a person in Zurich reads them.
public enum ZurichTime {
    public static func describe(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Zurich") ?? .gmt
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        return String(
            format: "%02d.%02d.%04d %02d:%02d (Zurich time)", parts.day ?? 0, parts.month ?? 0, parts.year ?? 0,
            parts.hour ?? 0, parts.minute ?? 0)
    }
}
