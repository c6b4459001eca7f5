import ConciergeStore
import Foundation

extension ConfigurationVariable {
    /// How long personal fields are kept once their purpose is served (docs/privacy.md).
    static let retention: [ConfigurationVariable] = [
        .init(
            name: "CONCIERGE_RETENTION_SENT_NOTIFICATIONS_DAYS", defaultValue: "30",
            summary:
                "Days a delivered (or given-up) email, SMS or push stays in the outbox, and a commute notice in its history; then it is deleted."
        ),
        .init(
            name: "CONCIERGE_RETENTION_DEV_OUTBOX_DAYS", defaultValue: "7",
            summary: "Days a message stays in the dev outbox (/dev/outbox, dev mode's stand-in for the providers)."),
        .init(
            name: "CONCIERGE_RETENTION_ORDER_EVENTS_DAYS", defaultValue: "365",
            summary:
                "Days an order's history names the account that acted; then it keeps only the kind of actor (the order and its amounts stay)."
        ),
    ]
}

extension RetentionPeriods {
    /// The periods from the `CONCIERGE_RETENTION_*` settings, whole days from 1 to 3650.
    init(environment: [String: String]) throws(ConfigurationError) {
        func days(_ name: String) throws(ConfigurationError) -> TimeInterval {
            let given = environment[name]?.trimmingCharacters(in: .whitespaces) ?? ""
            let text = given.isEmpty ? ConfigurationVariable.named(name)?.defaultValue ?? "" : given
            guard let days = Int(text), (1...3650).contains(days) else {
                throw ConfigurationError(name, "'\(text)' is not a whole number of days from 1 to 3650")
            }
            return TimeInterval(days) * RetentionPeriods.day
        }
        self.init(
            sentNotifications: try days("CONCIERGE_RETENTION_SENT_NOTIFICATIONS_DAYS"),
            devOutbox: try days("CONCIERGE_RETENTION_DEV_OUTBOX_DAYS"),
            orderEvents: try days("CONCIERGE_RETENTION_ORDER_EVENTS_DAYS"))
    }
}
