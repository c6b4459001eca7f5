/// Every schema change, in order. Append only: a released migration is never edited.
/// Times are BIGINT milliseconds since 1970 UTC (see `SQLValue`).
public enum Migrations {
    public static let all: [Migration] = [
        identity, outbox, bookings, webhookEvents, drivers, outboxByRecipient, idempotencyKeysByAge,
        outboxDeliveryKeys, sweepingByAge,
    ]

    public static var latestVersion: Int { all.map(\.version).max() ?? 0 }

    static let identity = Migration(
        version: 1, name: "identity",
        statements: [
            .portable(
                """
                CREATE TABLE settings (
                    key TEXT PRIMARY KEY,
                    value TEXT NOT NULL
                )
                """),
            .portable(
                """
                CREATE TABLE customers (
                    id TEXT PRIMARY KEY,
                    phone TEXT NOT NULL UNIQUE,
                    name TEXT,
                    email TEXT,
                    created_at BIGINT NOT NULL
                )
                """),
            .portable(
                """
                CREATE TABLE sessions (
                    token_hash TEXT PRIMARY KEY,
                    customer_id TEXT NOT NULL REFERENCES customers(id),
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    revoked_at BIGINT
                )
                """),
            .portable("CREATE INDEX sessions_by_customer ON sessions (customer_id)"),
            .portable(
                """
                CREATE TABLE code_challenges (
                    phone TEXT PRIMARY KEY,
                    id TEXT NOT NULL,
                    code_hash TEXT,
                    sent_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    wrong_guesses BIGINT NOT NULL DEFAULT 0
                )
                """),
            .portable(
                """
                CREATE TABLE rate_events (
                    key TEXT NOT NULL,
                    occurred_at BIGINT NOT NULL,
                    attempt_id TEXT NOT NULL
                )
                """),
            .portable("CREATE INDEX rate_events_by_key ON rate_events (key, occurred_at)"),
        ])

    static let outbox = Migration(
        version: 2, name: "dev outbox",
        statements: [
            .perDialect(
                sqlite: """
                    CREATE TABLE outbox_messages (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        channel TEXT NOT NULL,
                        recipient TEXT NOT NULL,
                        subject TEXT,
                        body TEXT NOT NULL,
                        created_at BIGINT NOT NULL
                    )
                    """,
                postgres: """
                    CREATE TABLE outbox_messages (
                        seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                        channel TEXT NOT NULL,
                        recipient TEXT NOT NULL,
                        subject TEXT,
                        body TEXT NOT NULL,
                        created_at BIGINT NOT NULL
                    )
                    """)
        ])

    static let bookings = Migration(
        version: 3, name: "ride bookings, payments, notifications",
        statements: [
            .portable(
                """
                CREATE TABLE bookings (
                    id TEXT PRIMARY KEY,
                    reference TEXT NOT NULL UNIQUE,
                    public_secret TEXT NOT NULL,
                    customer_id TEXT NOT NULL REFERENCES customers(id),
                    pickup_place_id TEXT NOT NULL,
                    pickup_description TEXT NOT NULL,
                    pickup_name TEXT NOT NULL,
                    pickup_kind TEXT NOT NULL,
                    pickup_time_zone TEXT NOT NULL,
                    destination_place_id TEXT NOT NULL,
                    destination_description TEXT NOT NULL,
                    destination_name TEXT NOT NULL,
                    destination_kind TEXT NOT NULL,
                    destination_time_zone TEXT NOT NULL,
                    pickup_at BIGINT NOT NULL,
                    passengers BIGINT NOT NULL,
                    vehicle_class TEXT NOT NULL,
                    flight_number TEXT,
                    price_cents BIGINT NOT NULL,
                    currency TEXT NOT NULL,
                    distance_meters BIGINT NOT NULL,
                    duration_seconds BIGINT NOT NULL,
                    state TEXT NOT NULL,
                    quote_expires_at BIGINT NOT NULL,
                    created_at BIGINT NOT NULL,
                    payment_provider TEXT,
                    payment_id TEXT,
                    checkout_url TEXT,
                    payment_status TEXT
                )
                """),
            .portable("CREATE INDEX bookings_by_customer ON bookings (customer_id, created_at)"),
            .portable("CREATE UNIQUE INDEX bookings_by_payment ON bookings (payment_provider, payment_id)"),
            .portable("CREATE INDEX bookings_by_state ON bookings (state, quote_expires_at)"),
            .perDialect(
                sqlite: """
                    CREATE TABLE booking_events (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        booking_id TEXT NOT NULL REFERENCES bookings(id) ON DELETE CASCADE,
                        at BIGINT NOT NULL,
                        type TEXT NOT NULL,
                        actor TEXT NOT NULL,
                        detail TEXT NOT NULL
                    )
                    """,
                postgres: """
                    CREATE TABLE booking_events (
                        seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                        booking_id TEXT NOT NULL REFERENCES bookings(id) ON DELETE CASCADE,
                        at BIGINT NOT NULL,
                        type TEXT NOT NULL,
                        actor TEXT NOT NULL,
                        detail TEXT NOT NULL
                    )
                    """),
            .portable("CREATE INDEX booking_events_by_booking ON booking_events (booking_id, seq)"),
            .portable(
                """
                CREATE TABLE idempotency_keys (
                    customer_id TEXT NOT NULL,
                    key TEXT NOT NULL,
                    request_hash TEXT NOT NULL,
                    response TEXT,
                    created_at BIGINT NOT NULL,
                    PRIMARY KEY (customer_id, key)
                )
                """),
            .perDialect(
                sqlite: """
                    CREATE TABLE notification_outbox (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        dedupe_key TEXT NOT NULL UNIQUE,
                        channel TEXT NOT NULL,
                        recipient TEXT NOT NULL,
                        subject TEXT NOT NULL,
                        body TEXT NOT NULL,
                        status TEXT NOT NULL,
                        attempts BIGINT NOT NULL DEFAULT 0,
                        next_attempt_at BIGINT NOT NULL,
                        created_at BIGINT NOT NULL,
                        sent_at BIGINT,
                        last_error TEXT
                    )
                    """,
                postgres: """
                    CREATE TABLE notification_outbox (
                        seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                        dedupe_key TEXT NOT NULL UNIQUE,
                        channel TEXT NOT NULL,
                        recipient TEXT NOT NULL,
                        subject TEXT NOT NULL,
                        body TEXT NOT NULL,
                        status TEXT NOT NULL,
                        attempts BIGINT NOT NULL DEFAULT 0,
                        next_attempt_at BIGINT NOT NULL,
                        created_at BIGINT NOT NULL,
                        sent_at BIGINT,
                        last_error TEXT
                    )
                    """),
            .portable("CREATE INDEX notification_outbox_due ON notification_outbox (status, next_attempt_at)"),
            .portable(
                """
                CREATE TABLE sandbox_payments (
                    id TEXT PRIMARY KEY,
                    amount_cents BIGINT NOT NULL,
                    currency TEXT NOT NULL,
                    description TEXT NOT NULL,
                    redirect_url TEXT NOT NULL,
                    status TEXT NOT NULL,
                    refunded_cents BIGINT NOT NULL DEFAULT 0,
                    metadata TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL
                )
                """),
        ])

    static let webhookEvents = Migration(
        version: 4, name: "applied webhook events",
        statements: [
            .portable(
                """
                CREATE TABLE webhook_events (
                    provider TEXT NOT NULL,
                    event_id TEXT NOT NULL,
                    received_at BIGINT NOT NULL,
                    PRIMARY KEY (provider, event_id)
                )
                """)
        ])

    static let drivers = Migration(
        version: 5, name: "driver details on bookings",
        statements: [
            .portable("ALTER TABLE bookings ADD COLUMN driver_name TEXT"),
            .portable("ALTER TABLE bookings ADD COLUMN driver_phone TEXT"),
            .portable("ALTER TABLE bookings ADD COLUMN driver_vehicle TEXT"),
            .portable("ALTER TABLE bookings ADD COLUMN driver_plate TEXT"),
            .portable("CREATE INDEX bookings_by_pickup ON bookings (pickup_at)"),
        ])

    /// The dev outbox is read per recipient (a tester's phone, the benchmark's sign-ins).
    static let outboxByRecipient = Migration(
        version: 6, name: "dev outbox by recipient",
        statements: [.portable("CREATE INDEX outbox_messages_by_recipient ON outbox_messages (recipient, seq)")])

    /// Old keys are pruned by age; without this index every prune read the whole table.
    static let idempotencyKeysByAge = Migration(
        version: 7, name: "idempotency keys by age",
        statements: [.portable("CREATE INDEX idempotency_keys_by_age ON idempotency_keys (created_at)")])

    /// A notification redelivered after a crash (sent, then killed before it was marked sent) is
    /// kept once: the dev outbox stores the notification's dedupe key under a unique index and
    /// inserts with ON CONFLICT DO NOTHING. Sign-in codes have no key (NULLs never conflict).
    static let outboxDeliveryKeys = Migration(
        version: 8, name: "dev outbox delivery keys",
        statements: [
            .portable("ALTER TABLE outbox_messages ADD COLUMN delivery_key TEXT"),
            .portable("CREATE UNIQUE INDEX outbox_messages_by_delivery_key ON outbox_messages (delivery_key)"),
        ])

    /// Rate events and applied webhook ids are swept by age (security review finding 27); these
    /// indexes keep each sweep to the rows it removes. A webhook event is claimed, applied, then
    /// marked applied (finding 11); events recorded before were recorded as they were applied.
    static let sweepingByAge = Migration(
        version: 9, name: "rate events and webhook events by age; webhook events marked applied",
        statements: [
            .portable("CREATE INDEX rate_events_by_age ON rate_events (occurred_at)"),
            .portable("CREATE INDEX webhook_events_by_age ON webhook_events (received_at)"),
            .portable("ALTER TABLE webhook_events ADD COLUMN applied_at BIGINT"),
            .portable("UPDATE webhook_events SET applied_at = received_at"),
        ])
}
