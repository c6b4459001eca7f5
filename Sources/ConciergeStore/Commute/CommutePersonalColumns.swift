extension PersonalDataColumn {
    /// Commute: trips (with home and work places), what was observed and sent about them.
    static let commute: [PersonalDataColumn] =
        table(
            "commute_trips", operational: ["id", "created_at", "updated_at", "next_check_at"],
            account: ["account_id"], personal: ["body"])
        + table(
            "commute_observations", operational: ["id", "trip_id", "expected_seconds", "created_at"],
            personal: ["departed_at", "arrived_at"])
        + table(
            "commute_occurrences",
            operational: [
                "trip_id", "day", "arrive_by", "leave_at", "announced_leave_at", "soon_sent_at", "now_sent_at",
            ])
        + table(
            "commute_devices",
            operational: ["platform", "environment", "created_at", "deactivated_at", "deactivation_reason"],
            account: ["account_id"], personal: ["token"], secret: ["session_id"])
        + table(
            "commute_live_activities",
            operational: [
                "trip_id", "environment", "created_at", "sent_at", "sent_day", "sent_arrive_by", "sent_state",
                "ended_at",
            ], account: ["account_id"], personal: ["token"])
        + table(
            "commute_notifications",
            operational: ["id", "trip_id", "dedupe_key", "kind", "leave_at", "channels", "sent_at"],
            account: ["account_id"], personal: ["title", "body"])
        + table("commute_leases", operational: ["name", "holder", "expires_at"])
}
