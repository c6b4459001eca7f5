extension PersonalDataColumn {
    /// Stays: the hotel, guests and reservations.
    static let stays: [PersonalDataColumn] =
        table("stays_hotel", operational: ["id", "settings", "version", "updated_at"])
        + table("stays_images", operational: ["name", "content_type", "data", "created_at"])
        + table(
            "stays_guests", operational: ["guest_id", "created_at"], account: ["account_id"],
            personal: ["username", "first_name", "last_name", "email", "phone"])
        + table(
            "stays_reservations",
            operational: [
                "id", "guest_id", "room_type_id", "check_in", "check_out", "people", "accommodation_cents",
                "city_tax_cents", "vat_included_cents", "first_night_cents", "currency", "status",
                "confirmation_code", "created_at", "cancelled_at", "refunded_cents", "charged_cents",
                "payment_policy", "order_id", "order_reference", "hold_id", "payment_provider", "payment_id",
                "payment_record_id", "pay_by", "paid_at",
            ], account: ["account_id"], personal: ["purpose"], secret: ["return_secret", "checkout_url"])
        + table(
            "stays_idempotency_keys", operational: ["idempotency_key", "reservation_id", "created_at"],
            account: ["account_id"], secret: ["request_hash"])
}
