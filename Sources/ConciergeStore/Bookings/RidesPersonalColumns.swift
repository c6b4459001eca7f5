extension PersonalDataColumn {
    /// Rides: the profile and the bookings (the `core` migrations' tables).
    static let rides: [PersonalDataColumn] =
        table("customers", operational: ["created_at"], account: ["id"], personal: ["phone", "name", "email"])
        + table(
            "bookings",
            operational: [
                "id", "reference", "pickup_kind", "pickup_time_zone", "destination_kind", "destination_time_zone",
                "pickup_at", "passengers", "vehicle_class", "price_cents", "currency", "distance_meters",
                "duration_seconds", "state", "quote_expires_at", "created_at", "payment_provider", "payment_id",
                "payment_status",
            ], account: ["customer_id"], personal: ["flight_number"], secret: ["public_secret", "checkout_url"],
            retained: [
                "pickup_place_id": Self.route, "pickup_description": Self.route, "pickup_name": Self.route,
                "destination_place_id": Self.route, "destination_description": Self.route,
                "destination_name": Self.route, "driver_name": Self.driver, "driver_phone": Self.driver,
                "driver_vehicle": Self.driver, "driver_plate": Self.driver,
            ])
        + table(
            "booking_events", operational: ["seq", "booking_id", "at", "type"], account: ["actor"],
            retained: ["detail": "what happened to the booking, for accounting"])

    private static let route = "the ride's route: the receipt and the driver's dispatch name it"
    private static let driver = "the driver's, not the customer's: who drove the ride"
}
