extension MigrationGroup {
    /// The seat-map tickets vertical: venues and their seats, shows and their prices, bookings
    /// and their tickets. Seat availability is the platform's inventory (`inventory_units`).
    public static let events = MigrationGroup(
        module: "events",
        migrations: [
            EventsMigrations.catalogueAndBookings, EventsMigrations.checkIns, EventsMigrations.scannerTokens,
            EventsMigrations.onSaleWindow, EventsMigrations.lifecycleColumns,
        ])
}

enum EventsMigrations {
    static let catalogueAndBookings = Migration(
        version: 1, name: "venues, seats, shows, prices, bookings and tickets",
        statements: [
            .portable(
                """
                CREATE TABLE events_venues (
                    id TEXT PRIMARY KEY,
                    name TEXT NOT NULL,
                    location TEXT NOT NULL,
                    time_zone TEXT NOT NULL,
                    width BIGINT NOT NULL,
                    height BIGINT NOT NULL
                )
                """),
            .portable(
                """
                CREATE TABLE events_sections (
                    venue_id TEXT NOT NULL REFERENCES events_venues(id),
                    id TEXT NOT NULL,
                    name TEXT NOT NULL,
                    color TEXT NOT NULL,
                    rank BIGINT NOT NULL,
                    PRIMARY KEY (venue_id, id)
                )
                """),
            .portable(
                """
                CREATE TABLE events_seats (
                    venue_id TEXT NOT NULL REFERENCES events_venues(id),
                    id TEXT NOT NULL,
                    section_id TEXT NOT NULL,
                    row_label TEXT NOT NULL,
                    row_index BIGINT NOT NULL,
                    number BIGINT NOT NULL,
                    x BIGINT NOT NULL,
                    y BIGINT NOT NULL,
                    accessible BIGINT NOT NULL,
                    PRIMARY KEY (venue_id, id)
                )
                """),
            .portable(
                """
                CREATE TABLE events_shows (
                    id TEXT PRIMARY KEY,
                    venue_id TEXT NOT NULL REFERENCES events_venues(id),
                    title TEXT NOT NULL,
                    description TEXT NOT NULL,
                    image_url TEXT NOT NULL,
                    starts_at BIGINT NOT NULL,
                    currency TEXT NOT NULL,
                    cancelled BIGINT NOT NULL DEFAULT 0
                )
                """),
            .portable(
                """
                CREATE TABLE events_show_prices (
                    show_id TEXT NOT NULL REFERENCES events_shows(id),
                    section_id TEXT NOT NULL,
                    category TEXT NOT NULL,
                    price_cents BIGINT NOT NULL CHECK (price_cents >= 0),
                    color TEXT NOT NULL,
                    PRIMARY KEY (show_id, section_id)
                )
                """),
            .portable(
                """
                CREATE TABLE events_bookings (
                    order_id TEXT PRIMARY KEY REFERENCES orders(id),
                    session_id TEXT NOT NULL UNIQUE,
                    show_id TEXT NOT NULL REFERENCES events_shows(id),
                    account_id TEXT NOT NULL,
                    contact_email TEXT NOT NULL,
                    hold_id TEXT NOT NULL,
                    state TEXT NOT NULL
                        CHECK (state IN ('pending', 'confirmed', 'cancelled', 'refunded', 'expired')),
                    payment_provider TEXT NOT NULL,
                    payment_id TEXT NOT NULL,
                    payment_record_id TEXT NOT NULL,
                    amount_cents BIGINT NOT NULL,
                    currency TEXT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL
                )
                """),
            .portable("CREATE INDEX events_bookings_by_account ON events_bookings (account_id, created_at)"),
            .portable("CREATE INDEX events_bookings_by_state ON events_bookings (state, expires_at)"),
            .portable(
                """
                CREATE TABLE events_tickets (
                    order_id TEXT NOT NULL REFERENCES events_bookings(order_id),
                    seat_id TEXT NOT NULL,
                    price_cents BIGINT NOT NULL,
                    secret TEXT NOT NULL UNIQUE,
                    PRIMARY KEY (order_id, seat_id)
                )
                """),
        ])
}

extension EventsMigrations {
    /// One row per admitted seat: its primary key is what admits a ticket exactly once across
    /// gates and instances.
    static let checkIns = Migration(
        version: 2, name: "check-ins",
        statements: [
            .portable(
                """
                CREATE TABLE events_checkins (
                    order_id TEXT NOT NULL REFERENCES events_bookings(order_id),
                    seat_id TEXT NOT NULL,
                    gate TEXT NOT NULL,
                    at BIGINT NOT NULL,
                    PRIMARY KEY (order_id, seat_id)
                )
                """)
        ])
}

extension EventsMigrations {
    /// Door scanners' own tokens, kept as their SHA-256; revoked ones stay listed.
    static let scannerTokens = Migration(
        version: 3, name: "scanner tokens",
        statements: [
            .portable(
                """
                CREATE TABLE events_scanner_tokens (
                    id TEXT PRIMARY KEY,
                    name TEXT NOT NULL,
                    digest TEXT NOT NULL UNIQUE,
                    created_at BIGINT NOT NULL,
                    revoked_at BIGINT
                )
                """)
        ])
}

extension EventsMigrations {
    /// A show's on-sale window (the admin API's `onSaleFrom`, `onSaleUntil`); empty is open-ended.
    static let onSaleWindow = Migration(
        version: 4, name: "show on-sale window",
        statements: [
            .portable("ALTER TABLE events_shows ADD COLUMN on_sale_from BIGINT"),
            .portable("ALTER TABLE events_shows ADD COLUMN on_sale_until BIGINT"),
        ])

    /// The platform lifecycle reads an order's hold and expiry from `orders`: carried over from
    /// the bookings made before it did.
    static let lifecycleColumns = Migration(
        version: 5, name: "orders carry their hold and expiry",
        statements: [
            .portable(
                """
                UPDATE orders SET
                    hold_id = (SELECT b.hold_id FROM events_bookings b WHERE b.order_id = orders.id),
                    expires_at = (SELECT b.expires_at FROM events_bookings b WHERE b.order_id = orders.id)
                WHERE vertical = 'events'
                """)
        ])
}
