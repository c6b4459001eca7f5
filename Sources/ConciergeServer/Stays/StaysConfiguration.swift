public import ConciergeCore
import Foundation

/// The stays settings (`CONCIERGE_STAYS_HOTEL_PATH`, `CONCIERGE_STAYS_FREE_CANCEL_HOURS`,
/// `CONCIERGE_STAYS_HOLD_MINUTES`), parsed once with the rest of the configuration; a bad hotel
/// file stops the start. The hotel file (or the demo) seeds the stored hotel on first start;
/// later the admin API changes it.
public struct StaysConfiguration: Sendable, Equatable {
    public var hotel: HotelSettings
    /// Whether `hotel` came from CONCIERGE_STAYS_HOTEL_PATH (rather than the built-in demo).
    public var hotelFromFile: Bool
    public var freeCancelHours: Int
    /// How long a prepaid reservation holds its nights while the guest pays.
    public var holdMinutes: Int
    /// What one guest may hold (`docs/limits.md`); the per-network number is the platform's.
    public var guestLimits: StaysService.GuestLimits

    init(environment: [String: String]) throws(ConfigurationError) {
        func value(_ name: String) -> String? {
            let given = environment[name]?.trimmingCharacters(in: .whitespaces) ?? ""
            return given.isEmpty ? nil : given
        }
        if let path = value("CONCIERGE_STAYS_HOTEL_PATH") {
            do {
                hotel = try HotelSettings.load(contentsOf: URL(fileURLWithPath: path))
                hotelFromFile = true
            } catch let error as ConciergeError {
                throw ConfigurationError("CONCIERGE_STAYS_HOTEL_PATH", error.message)
            } catch {
                throw ConfigurationError(
                    "CONCIERGE_STAYS_HOTEL_PATH", "'\(path)' is not a readable hotel file: \(error)")
            }
        } else {
            hotel = .demo
            hotelFromFile = false
        }
        let hours = value("CONCIERGE_STAYS_FREE_CANCEL_HOURS") ?? "24"
        guard let number = Int(hours), (0...8760).contains(number) else {
            throw ConfigurationError("CONCIERGE_STAYS_FREE_CANCEL_HOURS", "'\(hours)' is not a whole number 0…8760")
        }
        freeCancelHours = number
        let minutes = value("CONCIERGE_STAYS_HOLD_MINUTES") ?? "30"
        guard let hold = Int(minutes), (1...1440).contains(hold) else {
            throw ConfigurationError("CONCIERGE_STAYS_HOLD_MINUTES", "'\(minutes)' is not a whole number 1…1440")
        }
        holdMinutes = hold
        guestLimits = StaysService.GuestLimits()
        func count(_ name: String, default fallback: Int) throws(ConfigurationError) -> Int {
            let text = value(name) ?? String(fallback)
            guard let number = Int(text), (0...1_000_000).contains(number) else {
                throw ConfigurationError(name, "'\(text)' is not a whole number 0…1000000")
            }
            return number
        }
        guestLimits.orders.maxOpenUnpaid = try count("CONCIERGE_STAYS_MAX_UNPAID_ORDERS", default: 3)
        guestLimits.orders.maxPerHour = try count("CONCIERGE_STAYS_MAX_ORDERS_PER_HOUR", default: 10)
        guestLimits.roomsPerNight = try count("CONCIERGE_STAYS_MAX_ROOMS_PER_NIGHT", default: 2)
        switch (value("CONCIERGE_STAYS_PAY_AT_HOTEL_NEEDS_VERIFIED_EMAIL") ?? "true").lowercased() {
        case "true", "1", "yes", "on": guestLimits.payAtHotelNeedsVerifiedEmail = true
        case "false", "0", "no", "off": guestLimits.payAtHotelNeedsVerifiedEmail = false
        case let other:
            throw ConfigurationError(
                "CONCIERGE_STAYS_PAY_AT_HOTEL_NEEDS_VERIFIED_EMAIL", "'\(other)' is neither true nor false")
        }
    }
}

extension ConfigurationVariable {
    /// The settings only stays reads.
    public static let stays: [ConfigurationVariable] = [
        .init(
            name: "CONCIERGE_STAYS_HOTEL_PATH", defaultValue: "(built-in demo hotel)",
            summary:
                "JSON hotel that seeds stays on first start (then /stays/admin changes it): settings, room types, rates, seasons, closures; see docs/stays-hotel.example.json."
        ),
        .init(
            name: "CONCIERGE_STAYS_FREE_CANCEL_HOURS", defaultValue: "24",
            summary: "Stays cancel free until this many hours before check-in; later the first night is charged."),
        .init(
            name: "CONCIERGE_STAYS_HOLD_MINUTES", defaultValue: "30",
            summary: "How long a prepaid stays reservation holds its nights while the guest pays (1-1440)."),
        .init(
            name: "CONCIERGE_STAYS_MAX_UNPAID_ORDERS", defaultValue: "3",
            summary:
                "Prepaid reservations waiting for payment one account may have at once (0: no cap); see docs/limits.md."
        ),
        .init(
            name: "CONCIERGE_STAYS_MAX_ORDERS_PER_HOUR", defaultValue: "10",
            summary: "Reservations (prepaid and pay-at-hotel) one account may make per hour (0: no cap)."),
        .init(
            name: "CONCIERGE_STAYS_MAX_ROOMS_PER_NIGHT", defaultValue: "2",
            summary: "Rooms of one type one account may hold or have confirmed on the same night (0: no cap)."),
        .init(
            name: "CONCIERGE_STAYS_PAY_AT_HOTEL_NEEDS_VERIFIED_EMAIL", defaultValue: "true",
            summary:
                "Pay-at-hotel reservations (confirmed at once, nothing paid) need a verified email; prepaid ones do not."
        ),
    ]
}
