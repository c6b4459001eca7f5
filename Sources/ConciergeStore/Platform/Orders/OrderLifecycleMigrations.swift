enum OrderLifecycleMigrations {
    /// The platform's status next to each vertical's own state name, with what the lifecycle
    /// needs of every order (its hold, when it lapses, when it was paid), and the refunds owed:
    /// written in the transaction that moves an order, paid by the worker under their key.
    static let statusAndRefundsOwed = Migration(
        version: 5, name: "order status, hold, expiry, paid time; refunds owed",
        statements: [
            .portable("ALTER TABLE orders ADD COLUMN status TEXT NOT NULL DEFAULT 'awaiting_payment'"),
            .portable("ALTER TABLE orders ADD COLUMN hold_id TEXT"),
            .portable("ALTER TABLE orders ADD COLUMN expires_at BIGINT"),
            .portable("ALTER TABLE orders ADD COLUMN paid_at BIGINT"),
            .portable("UPDATE orders SET status = \(statusOfState)"),
            .portable(
                "UPDATE orders SET paid_at = updated_at WHERE id IN (SELECT order_id FROM payments WHERE status = 'paid')"
            ),
            .portable(
                """
                UPDATE orders SET expires_at = (SELECT b.quote_expires_at FROM bookings b WHERE b.id = orders.id)
                WHERE vertical = 'rides'
                """),
            // The expiry worker's scan: open orders of one vertical by the time they lapse.
            .portable("CREATE INDEX orders_lapsing ON orders (vertical, status, expires_at)"),
            .portable(
                """
                CREATE TABLE refunds_owed (
                    key TEXT PRIMARY KEY,
                    order_id TEXT NOT NULL REFERENCES orders(id),
                    payment_id TEXT NOT NULL REFERENCES payments(id),
                    amount_cents BIGINT NOT NULL CHECK (amount_cents > 0),
                    currency TEXT NOT NULL,
                    reason TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    attempts BIGINT NOT NULL DEFAULT 0,
                    next_attempt_at BIGINT NOT NULL,
                    paid_at BIGINT,
                    refund_id TEXT
                )
                """),
            .portable("CREATE INDEX refunds_owed_due ON refunds_owed (paid_at, next_attempt_at)"),
            .portable("CREATE INDEX refunds_owed_by_order ON refunds_owed (order_id)"),
        ])

    /// Every vertical's state names mapped to the platform's status: the open states, the
    /// ends, and everything else a confirmed order can become (a ride's `driver_assigned`).
    static let statusOfState = """
        CASE WHEN state IN ('pending', 'pending_payment', 'awaiting_payment') THEN 'awaiting_payment'
            WHEN state IN ('held', 'cancelled', 'expired', 'refunded') THEN state ELSE 'confirmed' END
        """
}
