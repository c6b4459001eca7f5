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
    ]
}
