extension MigrationGroup {
    /// The shared orders tables of the platform layer: orders with lines and an event log, the
    /// payments and refunds ledger every provider writes to, and idempotency keys scoped by route.
    public static let orders = MigrationGroup(
        module: "orders",
        migrations: [
            OrdersMigrations.orders, OrdersMigrations.payments, OrdersMigrations.scopedIdempotencyKeys,
            OrdersMigrations.sandboxRefunds, OrderLifecycleMigrations.statusAndRefundsOwed,
            RidesLifecycleMigrations.refundsStillOwed,
        ])
}

enum OrdersMigrations {
    /// Orders, their lines and events. Every existing ride booking becomes a rides order with
    /// the booking's id and reference, so the booking row is the ride-specific part of its order.
    static let orders = Migration(
        version: 1, name: "orders, order lines, order events",
        statements: [
            // account_id is NULL once an account is erased: the order is kept for accounting.
            .portable(
                """
                CREATE TABLE orders (
                    id TEXT PRIMARY KEY,
                    vertical TEXT NOT NULL,
                    account_id TEXT,
                    reference TEXT NOT NULL UNIQUE,
                    public_secret TEXT NOT NULL,
                    amount_cents BIGINT NOT NULL,
                    currency TEXT NOT NULL,
                    state TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL
                )
                """),
            .portable("CREATE INDEX orders_by_account ON orders (account_id, created_at)"),
            .portable(
                """
                CREATE TABLE order_lines (
                    order_id TEXT NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
                    position BIGINT NOT NULL,
                    kind TEXT NOT NULL,
                    description TEXT NOT NULL,
                    quantity BIGINT NOT NULL,
                    unit_amount_cents BIGINT NOT NULL,
                    amount_cents BIGINT NOT NULL,
                    PRIMARY KEY (order_id, position)
                )
                """),
            .perDialect(
                sqlite: """
                    CREATE TABLE order_events (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        order_id TEXT NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
                        at BIGINT NOT NULL,
                        type TEXT NOT NULL,
                        actor TEXT NOT NULL,
                        detail TEXT NOT NULL
                    )
                    """,
                postgres: """
                    CREATE TABLE order_events (
                        seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                        order_id TEXT NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
                        at BIGINT NOT NULL,
                        type TEXT NOT NULL,
                        actor TEXT NOT NULL,
                        detail TEXT NOT NULL
                    )
                    """),
            .portable("CREATE INDEX order_events_by_order ON order_events (order_id, seq)"),
            .portable(
                """
                INSERT INTO orders
                    (id, vertical, account_id, reference, public_secret, amount_cents, currency, state, created_at, updated_at)
                SELECT id, 'rides', customer_id, reference, public_secret, price_cents, currency, state, created_at, created_at
                FROM bookings
                """),
            .portable(
                """
                INSERT INTO order_lines (order_id, position, kind, description, quantity, unit_amount_cents, amount_cents)
                SELECT id, 0, 'ride', 'Ride, ' || vehicle_class, 1, price_cents, price_cents FROM bookings
                """),
            .portable(
                """
                INSERT INTO order_events (order_id, at, type, actor, detail)
                SELECT id, created_at, 'created', 'system', 'carried over from the ride booking' FROM bookings
                """),
        ])

    /// Payments and refunds with their owner, for every provider. The sandbox keeps no ledger of
    /// its own any more: its payment is the `payments` row. Existing booking payments move here.
    static let payments = Migration(
        version: 2, name: "payments and refunds ledger",
        statements: [
            .portable(
                """
                CREATE TABLE payments (
                    id TEXT PRIMARY KEY,
                    provider TEXT NOT NULL,
                    provider_payment_id TEXT NOT NULL,
                    owner_vertical TEXT NOT NULL,
                    order_id TEXT NOT NULL REFERENCES orders(id),
                    amount_cents BIGINT NOT NULL,
                    currency TEXT NOT NULL,
                    status TEXT NOT NULL,
                    refunded_cents BIGINT NOT NULL DEFAULT 0,
                    checkout_url TEXT NOT NULL,
                    description TEXT NOT NULL,
                    redirect_url TEXT NOT NULL,
                    metadata TEXT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    created_at BIGINT NOT NULL,
                    UNIQUE (provider, provider_payment_id)
                )
                """),
            .portable("CREATE INDEX payments_by_order ON payments (order_id)"),
            .portable(
                """
                CREATE TABLE refunds (
                    id TEXT PRIMARY KEY,
                    payment_id TEXT NOT NULL REFERENCES payments(id),
                    provider_refund_id TEXT NOT NULL,
                    amount_cents BIGINT NOT NULL,
                    currency TEXT NOT NULL,
                    reason TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    UNIQUE (payment_id, provider_refund_id)
                )
                """),
            .portable(
                """
                INSERT INTO payments
                    (id, provider, provider_payment_id, owner_vertical, order_id, amount_cents, currency, status,
                     refunded_cents, checkout_url, description, redirect_url, metadata, expires_at, created_at)
                SELECT 'pay_' || b.id, b.payment_provider, b.payment_id, 'rides', b.id, b.price_cents, b.currency,
                    COALESCE(s.status, b.payment_status, 'open'), COALESCE(s.refunded_cents, 0),
                    COALESCE(b.checkout_url, ''), COALESCE(s.description, 'Concierge ride ' || b.reference),
                    COALESCE(s.redirect_url, ''), COALESCE(s.metadata, '{}'), b.quote_expires_at, b.created_at
                FROM bookings b LEFT JOIN sandbox_payments s ON b.payment_provider = 'sandbox' AND s.id = b.payment_id
                WHERE b.payment_provider IS NOT NULL AND b.payment_id IS NOT NULL
                """),
            // The booking's payment now lives in `payments`; the old columns stay (SQLite cannot
            // drop an indexed column in place) but are no longer written or read.
            .portable("UPDATE bookings SET payment_provider = NULL, payment_id = NULL, checkout_url = NULL"),
            .portable("DROP TABLE sandbox_payments"),
        ])

    /// Idempotency keys with the route they belong to: one key sent to two routes gives two
    /// independent answers. A new table, since SQLite cannot change a primary key.
    static let scopedIdempotencyKeys = Migration(
        version: 3, name: "idempotency keys scoped by route",
        statements: [
            .portable(
                """
                CREATE TABLE idempotency_keys_v2 (
                    scope TEXT NOT NULL,
                    account_id TEXT NOT NULL,
                    key TEXT NOT NULL,
                    request_hash TEXT NOT NULL,
                    response TEXT,
                    created_at BIGINT NOT NULL,
                    PRIMARY KEY (scope, account_id, key)
                )
                """),
            .portable("CREATE INDEX idempotency_keys_v2_by_age ON idempotency_keys_v2 (created_at)"),
            .portable(
                """
                INSERT INTO idempotency_keys_v2 (scope, account_id, key, request_hash, response, created_at)
                SELECT 'rides.app-book', customer_id, key, request_hash, response, created_at FROM idempotency_keys
                """),
            .portable("DROP TABLE idempotency_keys"),
        ])

    /// The sandbox's own record of the refunds it made, by the caller's idempotency key, as
    /// Mollie and Stripe keep theirs: a partial refund refunds its amount, and the same refund
    /// asked again (a retry after a crash) refunds nothing more.
    static let sandboxRefunds = Migration(
        version: 4, name: "sandbox refunds by idempotency key",
        statements: [
            .portable(
                """
                CREATE TABLE sandbox_refunds (
                    provider_payment_id TEXT NOT NULL,
                    idempotency_key TEXT NOT NULL,
                    amount_cents BIGINT NOT NULL,
                    created_at BIGINT NOT NULL,
                    PRIMARY KEY (provider_payment_id, idempotency_key)
                )
                """)
        ])
}
