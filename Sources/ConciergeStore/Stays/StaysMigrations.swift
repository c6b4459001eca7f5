extension MigrationGroup {
    /// The stays vertical's tables, with their own version sequence.
    public static let stays = MigrationGroup(
        module: "stays",
        migrations: [
            StaysMigrations.guestsNightsReservations, StaysMigrations.idempotencyKeysByAge,
            StaysMigrations.platformInventoryPrepaymentsStoredHotel, StaysMigrations.lifecycleColumns,
            StaysMigrations.keyFingerprints,
        ])
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

    /// The nights move to the platform's inventory (one unit per room type per night, so holds,
    /// late payments and the hold expiry work on them as on seats): each booked count becomes a
    /// unit sold that often, its capacity the count for now (the hotel's room counts replace it
    /// when the hotel is stored on the next start). Reservations learn prepayment (their order,
    /// hold and payment) and three states; the hotel itself and uploaded pictures are stored.
    static let platformInventoryPrepaymentsStoredHotel = Migration(
        version: 3, name: "stays nights on the platform inventory, prepaid reservations, stored hotel and pictures",
        statements: [
            .portable(
                """
                INSERT INTO inventory_units (unit_key, capacity, held, sold)
                SELECT 'stays:room' || room_type_id || ':' || night, booked, 0, booked FROM stays_nights WHERE booked > 0
                """),
            .portable("DROP TABLE stays_nights"),
            // SQLite cannot change a CHECK constraint: the table is rebuilt under its name (ids
            // kept, AUTOINCREMENT's counter with them). PostgreSQL swaps the constraint and adds
            // the columns.
            .perDialect(
                sqlite: """
                    CREATE TABLE stays_reservations_v3 (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        \(reservationColumnsV3)
                    )
                    """,
                postgres: "ALTER TABLE stays_reservations DROP CONSTRAINT stays_reservations_status_check"),
            .perDialect(
                sqlite: """
                    INSERT INTO stays_reservations_v3 (id, guest_id, account_id, room_type_id, check_in, check_out, people,
                        purpose, accommodation_cents, city_tax_cents, vat_included_cents, first_night_cents, currency, status,
                        confirmation_code, created_at, cancelled_at, refunded_cents, charged_cents)
                    SELECT id, guest_id, account_id, room_type_id, check_in, check_out, people, purpose, accommodation_cents,
                        city_tax_cents, vat_included_cents, first_night_cents, currency, status, confirmation_code, created_at,
                        cancelled_at, refunded_cents, charged_cents
                    FROM stays_reservations
                    """,
                postgres: """
                    ALTER TABLE stays_reservations ADD CONSTRAINT stays_reservations_status_check
                        CHECK (status IN ('pending_payment', 'confirmed', 'cancelled', 'expired', 'refunded'))
                    """),
            .perDialect(
                sqlite: "DROP TABLE stays_reservations",
                postgres: """
                    ALTER TABLE stays_reservations
                        ADD COLUMN payment_policy TEXT NOT NULL DEFAULT 'pay_at_hotel',
                        ADD COLUMN order_id TEXT UNIQUE,
                        ADD COLUMN order_reference TEXT,
                        ADD COLUMN return_secret TEXT UNIQUE,
                        ADD COLUMN hold_id TEXT,
                        ADD COLUMN payment_provider TEXT,
                        ADD COLUMN payment_id TEXT,
                        ADD COLUMN payment_record_id TEXT,
                        ADD COLUMN checkout_url TEXT,
                        ADD COLUMN pay_by BIGINT,
                        ADD COLUMN paid_at BIGINT
                    """),
            .perDialect(sqlite: "ALTER TABLE stays_reservations_v3 RENAME TO stays_reservations", postgres: "SELECT 1"),
            .perDialect(
                sqlite: "CREATE INDEX stays_reservations_by_guest ON stays_reservations (guest_id, check_in)",
                postgres: "SELECT 1"),
            .perDialect(
                sqlite: "CREATE INDEX stays_reservations_by_check_in ON stays_reservations (check_in)",
                postgres: "SELECT 1"),
            .portable("CREATE INDEX stays_reservations_by_check_out ON stays_reservations (check_out)"),
            // The expiry job's scan: prepaid reservations waiting for their payment, by deadline.
            .portable("CREATE INDEX stays_reservations_pending ON stays_reservations (status, pay_by)"),
            .portable(
                """
                CREATE TABLE stays_hotel (
                    id BIGINT PRIMARY KEY CHECK (id = 1),
                    settings TEXT NOT NULL,
                    version BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL
                )
                """),
            .portable(
                """
                CREATE TABLE stays_images (
                    name TEXT PRIMARY KEY,
                    content_type TEXT NOT NULL,
                    data TEXT NOT NULL,
                    created_at BIGINT NOT NULL
                )
                """),
        ])

    private static let reservationColumnsV3 = """
        \(reservationColumns.replacingOccurrences(
            of: "CHECK (status IN ('confirmed', 'cancelled'))",
            with: "CHECK (status IN ('pending_payment', 'confirmed', 'cancelled', 'expired', 'refunded'))")),
                        payment_policy TEXT NOT NULL DEFAULT 'pay_at_hotel',
                        order_id TEXT UNIQUE,
                        order_reference TEXT,
                        return_secret TEXT UNIQUE,
                        hold_id TEXT,
                        payment_provider TEXT,
                        payment_id TEXT,
                        payment_record_id TEXT,
                        checkout_url TEXT,
                        pay_by BIGINT,
                        paid_at BIGINT
        """

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

    /// The platform lifecycle reads an order's hold and expiry from `orders`: carried over from
    /// the prepaid reservations made before it did.
    static let lifecycleColumns = Migration(
        version: 4, name: "orders carry their hold and expiry",
        statements: [
            .portable(
                """
                UPDATE orders SET
                    hold_id = (SELECT r.hold_id FROM stays_reservations r WHERE r.order_id = orders.id),
                    expires_at = (SELECT r.pay_by FROM stays_reservations r WHERE r.order_id = orders.id)
                WHERE vertical = 'stays'
                """)
        ])

    /// A key remembers the fingerprint of the body it was first sent with: the same key with
    /// another body is refused (422) in the reservation's own transaction, not in two more.
    static let keyFingerprints = Migration(
        version: 5, name: "stays idempotency keys keep their request's fingerprint",
        statements: [.portable("ALTER TABLE stays_idempotency_keys ADD COLUMN request_hash TEXT")])
}
