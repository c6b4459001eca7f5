extension MigrationGroup {
    /// The stays vertical's tables, with their own version sequence.
    public static let stays = MigrationGroup(
        module: "stays", migrations: [StaysMigrations.guestsNightsReservations, StaysMigrations.idempotencyKeysByAge])
}

enum StaysMigrations {
    /// Guests (the seed's integer `guestId` per account), rooms booked per type per night (the
    /// inventory; `booked` only grows by a conditional write), reservations with the prices
    /// decided when they were made, and idempotency keys per account.
    static let guestsNightsReservations = Migration(
        version: 1, name: "stays guests, nights, reservations and idempotency keys",
        statements: [
            .perDialect(
                sqlite: """
                    CREATE TABLE stays_guests (
                        guest_id INTEGER PRIMARY KEY AUTOINCREMENT,
                        account_id TEXT NOT NULL UNIQUE,
                        username TEXT NOT NULL,
                        first_name TEXT NOT NULL,
                        last_name TEXT NOT NULL,
                        email TEXT NOT NULL,
                        phone TEXT NOT NULL,
                        created_at BIGINT NOT NULL
                    )
                    """,
                postgres: """
                    CREATE TABLE stays_guests (
                        guest_id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                        account_id TEXT NOT NULL UNIQUE,
                        username TEXT NOT NULL,
                        first_name TEXT NOT NULL,
                        last_name TEXT NOT NULL,
                        email TEXT NOT NULL,
                        phone TEXT NOT NULL,
                        created_at BIGINT NOT NULL
                    )
                    """),
            .portable(
                """
                CREATE TABLE stays_nights (
                    room_type_id BIGINT NOT NULL,
                    night TEXT NOT NULL,
                    booked BIGINT NOT NULL CHECK (booked >= 0),
                    PRIMARY KEY (room_type_id, night)
                )
                """),
            .portable("CREATE INDEX stays_nights_by_night ON stays_nights (night)"),
            .perDialect(
                sqlite: """
                    CREATE TABLE stays_reservations (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        \(reservationColumns)
                    )
                    """,
                postgres: """
                    CREATE TABLE stays_reservations (
                        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                        \(reservationColumns)
                    )
                    """),
            .portable("CREATE INDEX stays_reservations_by_guest ON stays_reservations (guest_id, check_in)"),
            .portable("CREATE INDEX stays_reservations_by_check_in ON stays_reservations (check_in)"),
            .portable(
                """
                CREATE TABLE stays_idempotency_keys (
                    account_id TEXT NOT NULL,
                    idempotency_key TEXT NOT NULL,
                    reservation_id BIGINT NOT NULL,
                    created_at BIGINT NOT NULL,
                    PRIMARY KEY (account_id, idempotency_key)
                )
                """),
        ])

    /// The pruning job's scan: keys by age.
    static let idempotencyKeysByAge = Migration(
        version: 2, name: "stays idempotency keys by age",
        statements: [.portable("CREATE INDEX stays_idempotency_keys_by_age ON stays_idempotency_keys (created_at)")])

    private static let reservationColumns = """
        guest_id BIGINT NOT NULL,
                        account_id TEXT NOT NULL,
                        room_type_id BIGINT NOT NULL,
                        check_in TEXT NOT NULL,
                        check_out TEXT NOT NULL,
                        people BIGINT NOT NULL,
                        purpose TEXT NOT NULL,
                        accommodation_cents BIGINT NOT NULL,
                        city_tax_cents BIGINT NOT NULL,
                        vat_included_cents BIGINT NOT NULL,
                        first_night_cents BIGINT NOT NULL,
                        currency TEXT NOT NULL,
                        status TEXT NOT NULL CHECK (status IN ('confirmed', 'cancelled')),
                        confirmation_code TEXT NOT NULL UNIQUE,
                        created_at BIGINT NOT NULL,
                        cancelled_at BIGINT,
                        refunded_cents BIGINT NOT NULL DEFAULT 0,
                        charged_cents BIGINT NOT NULL DEFAULT 0
        """
}
