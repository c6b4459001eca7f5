extension MigrationGroup {
    /// The shared holds tables of the platform layer.
    public static let holds = MigrationGroup(module: "holds", migrations: [HoldsMigrations.inventoryAndHolds])
}

enum HoldsMigrations {
    /// The invariant lives in the schema as well as in the conditional writes: a unit can never
    /// be more held plus sold than its capacity, whatever code writes to it.
    static let inventoryAndHolds = Migration(
        version: 1, name: "inventory units, holds and their items",
        statements: [
            .portable(
                """
                CREATE TABLE inventory_units (
                    unit_key TEXT PRIMARY KEY,
                    capacity BIGINT NOT NULL CHECK (capacity >= 0),
                    held BIGINT NOT NULL DEFAULT 0 CHECK (held >= 0),
                    sold BIGINT NOT NULL DEFAULT 0 CHECK (sold >= 0),
                    CHECK (held + sold <= capacity)
                )
                """),
            .portable(
                """
                CREATE TABLE holds (
                    id TEXT PRIMARY KEY,
                    owner_id TEXT NOT NULL,
                    state TEXT NOT NULL CHECK (state IN ('held', 'sold', 'released', 'expired')),
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    ended_at BIGINT,
                    order_id TEXT
                )
                """),
            // The expiry job's scan: held holds by expiry time.
            .portable("CREATE INDEX holds_by_state_and_expiry ON holds (state, expires_at)"),
            .portable("CREATE INDEX holds_by_owner ON holds (owner_id, created_at)"),
            .portable(
                """
                CREATE TABLE hold_items (
                    hold_id TEXT NOT NULL REFERENCES holds(id),
                    unit_key TEXT NOT NULL REFERENCES inventory_units(unit_key),
                    quantity BIGINT NOT NULL CHECK (quantity > 0),
                    PRIMARY KEY (hold_id, unit_key)
                )
                """),
        ])
}
