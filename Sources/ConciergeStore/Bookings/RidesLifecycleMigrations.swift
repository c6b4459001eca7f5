enum RidesLifecycleMigrations {
    /// Rides' own refund worker went with its copy of the rules: a ride cancelled after payment
    /// whose refund was not paid yet (the provider refused, or the server stopped before it) is
    /// owed from here on, under the key rides' worker used (`cancel-<order>`), so the platform's
    /// worker pays it once, and a refund the provider made but we never recorded is recorded.
    static let refundsStillOwed = Migration(
        version: 6, name: "refunds still owed on cancelled rides",
        statements: [
            .portable(
                """
                INSERT INTO refunds_owed (key, order_id, payment_id, amount_cents, currency, reason, created_at,
                    next_attempt_at)
                SELECT 'cancel-' || o.id, o.id, p.id,
                    CASE WHEN p.amount_cents < o.amount_cents THEN p.amount_cents ELSE o.amount_cents END
                        - p.refunded_cents,
                    p.currency, 'Concierge ride ' || o.reference || ' cancelled by the customer', o.updated_at,
                    o.updated_at
                FROM orders o JOIN payments p ON p.order_id = o.id
                WHERE o.vertical = 'rides' AND o.status = 'cancelled' AND p.status = 'paid'
                    AND p.refunded_cents < CASE WHEN p.amount_cents < o.amount_cents THEN p.amount_cents
                        ELSE o.amount_cents END
                    AND NOT EXISTS (SELECT 1 FROM refunds_owed r WHERE r.key = 'cancel-' || o.id)
                """)
        ])
}
