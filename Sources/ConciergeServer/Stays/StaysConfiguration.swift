public import ConciergeCore
import Foundation

/// The stays settings (`CONCIERGE_STAYS_HOTEL_PATH`, `CONCIERGE_STAYS_FREE_CANCEL_HOURS`),
/// parsed once with the rest of the configuration; a bad hotel file stops the start.
public struct StaysConfiguration: Sendable, Equatable {
    public var hotel: HotelSettings
    public var freeCancelHours: Int

    init(environment: [String: String]) throws(ConfigurationError) {
        func value(_ name: String) -> String? {
            let given = environment[name]?.trimmingCharacters(in: .whitespaces) ?? ""
            return given.isEmpty ? nil : given
        }
        if let path = value("CONCIERGE_STAYS_HOTEL_PATH") {
            do {
                hotel = try HotelSettings.load(contentsOf: URL(fileURLWithPath: path))
            } catch let error as ConciergeError {
                throw ConfigurationError("CONCIERGE_STAYS_HOTEL_PATH", error.message)
            } catch {
                throw ConfigurationError(
                    "CONCIERGE_STAYS_HOTEL_PATH", "'\(path)' is not a readable hotel file: \(error)")
            }
        } else {
            hotel = .demo
        }
        let hours = value("CONCIERGE_STAYS_FREE_CANCEL_HOURS") ?? "24"
        guard let number = Int(hours), (0...8760).contains(number) else {
            throw ConfigurationError("CONCIERGE_STAYS_FREE_CANCEL_HOURS", "'\(hours)' is not a whole number 0…8760")
        }
        freeCancelHours = number
    }
}

extension ConfigurationVariable {
    /// The settings only stays reads.
    public static let stays: [ConfigurationVariable] = [
        .init(
            name: "CONCIERGE_STAYS_HOTEL_PATH", defaultValue: "(built-in demo hotel)",
            summary:
                "JSON hotel for stays: settings, room types, rates, seasons, closures; see docs/stays-hotel.example.json."
        ),
        .init(
            name: "CONCIERGE_STAYS_FREE_CANCEL_HOURS", defaultValue: "24",
            summary: "Stays cancel free until this many hours before check-in; later the first night is charged."),
    ]
}
