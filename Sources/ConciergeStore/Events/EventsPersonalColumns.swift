extension PersonalDataColumn {
    /// Events: the catalogue (venues, shows, seats), bookings, tickets, check-ins and scanners.
    static let events: [PersonalDataColumn] =
        table("events_venues", operational: ["id", "name", "location", "time_zone", "width", "height"])
        + table("events_sections", operational: ["venue_id", "id", "name", "color", "rank"])
        + table(
            "events_seats",
            operational: [
                "venue_id", "id", "section_id", "row_label", "row_index", "number", "x", "y",
                "accessible",
            ])
        + table(
            "events_shows",
            operational: [
                "id", "venue_id", "title", "description", "image_url", "starts_at", "currency", "cancelled",
                "on_sale_from", "on_sale_until",
            ])
        + table("events_show_prices", operational: ["show_id", "section_id", "category", "price_cents", "color"])
        + table(
            "events_bookings",
            operational: [
                "order_id", "show_id", "hold_id", "state", "payment_provider", "payment_id", "payment_record_id",
                "amount_cents", "currency", "expires_at", "created_at", "updated_at",
            ], account: ["account_id"], personal: ["contact_email"], secret: ["session_id"])
        + table("events_tickets", operational: ["order_id", "seat_id", "price_cents"], secret: ["secret"])
        + table("events_checkins", operational: ["order_id", "seat_id", "gate", "at"])
        + table("events_scanner_tokens", operational: ["id", "name", "created_at", "revoked_at"], secret: ["digest"])
}
