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
        .init(
            name: "CONCIERGE_EVENTS_MAX_UNPAID_ORDERS", defaultValue: "3",
            summary: "Seat checkouts waiting for payment one account may have at once (0: no cap); see docs/limits.md."),
        .init(
            name: "CONCIERGE_EVENTS_MAX_ORDERS_PER_HOUR", defaultValue: "10",
            summary: "Seat checkouts one account may start per hour (0: no cap)."),
        .init(
            name: "CONCIERGE_EVENTS_MAX_SEATS_PER_SHOW", defaultValue: "10",
            summary: "Seats one account may hold and own for one show, held and sold together (0: no cap)."),
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
        maximumSeatsPerShow = try integer("CONCIERGE_EVENTS_MAX_SEATS_PER_SHOW", in: 0...1_000_000)
        limits = OrderLimits(
            maxOpenUnpaid: try integer("CONCIERGE_EVENTS_MAX_UNPAID_ORDERS", in: 0...1_000_000),
            maxPerHour: try integer("CONCIERGE_EVENTS_MAX_ORDERS_PER_HOUR", in: 0...1_000_000),
            perNetworkPerMinute: configuration.ordersPerNetworkPerMinute)
        publicURL = configuration.publicURL
    }
}
