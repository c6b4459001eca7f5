import ConciergeCore
import Foundation

extension ConfigurationVariable {
    /// The settings only events reads.
    public static let events: [ConfigurationVariable] = [
        .init(
            name: "CONCIERGE_EVENTS_HOLD_MINUTES", defaultValue: "15",
            summary: "How long seats are held while the buyer pays (1–120); then they go back on sale."),
        .init(
            name: "CONCIERGE_EVENTS_CANCEL_HOURS", defaultValue: "48",
            summary: "Tickets can be cancelled with a full refund until this many hours before the show."),
        .init(
            name: "CONCIERGE_EVENTS_SEAT_STATES_MAX_AGE_MS", defaultValue: "500",
            summary:
                "How long (0–60000 ms) an instance reuses a show's seat states read from the database for seat maps, show lists and best available; its own sales show at once, other instances' after at most this long. Holds are always checked in the database. 0 reads every time."
        ),
    ]
}

extension EventsPolicy {
    /// The policy from the server's variables, failing the start with the variable's name when
    /// one is malformed or out of range.
    init(configuration: ServerConfiguration) throws(ConfigurationError) {
        self.init()
        func integer(_ name: String, in range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
            let given = configuration.environment[name]?.trimmingCharacters(in: .whitespaces) ?? ""
            let text = given.isEmpty ? (ConfigurationVariable.named(name)?.defaultValue ?? "") : given
            guard let number = Int(text), range.contains(number) else {
                throw ConfigurationError(
                    name, "'\(text)' is not a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return number
        }
        holdMinutes = try integer("CONCIERGE_EVENTS_HOLD_MINUTES", in: 1...120)
        cancelHours = try integer("CONCIERGE_EVENTS_CANCEL_HOURS", in: 0...8760)
        seatStatesMaxAgeMilliseconds = try integer("CONCIERGE_EVENTS_SEAT_STATES_MAX_AGE_MS", in: 0...60000)
        publicURL = configuration.publicURL
    }
}
