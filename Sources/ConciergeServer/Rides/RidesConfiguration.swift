extension ConfigurationVariable {
    /// The settings only rides reads: its tariff and booking rules.
    public static let rides: [ConfigurationVariable] = [
        .init(
            name: "CONCIERGE_TARIFF_PATH", defaultValue: "(built-in)",
            summary: "JSON tariff for rides pricing; see docs/tariff.example.json."),
        .init(
            name: "CONCIERGE_MIN_ADVANCE_HOURS", defaultValue: "48",
            summary: "Rides must be booked at least this many hours ahead."),
        .init(
            name: "CONCIERGE_QUOTE_TTL_SECONDS", defaultValue: "1800",
            summary: "How long a quote holds; an unpaid booking expires after it."),
        .init(
            name: "CONCIERGE_FREE_CANCELLATION_HOURS", defaultValue: "24",
            summary: "Free cancellation (with refund) until this many hours before pickup."),
        .init(
            name: "CONCIERGE_PUBLIC_READS_PER_MINUTE", defaultValue: "300",
            summary: "Places and pricing requests per client network per minute, across all instances (0: no limit)."),
        .init(
            name: "CONCIERGE_MAX_UNPAID_BOOKINGS", defaultValue: "3",
            summary: "Bookings awaiting payment one customer may have at once (0: no cap)."),
        .init(
            name: "CONCIERGE_MAX_BOOKINGS_PER_HOUR", defaultValue: "10",
            summary: "Bookings one customer may make per hour (0: no cap)."),
    ]
}
