public import ConciergeCore
public import Foundation

/// Holds in SQL. Each change is one transaction of conditional writes: a unit's `held` grows only
/// `WHERE held + sold + quantity <= capacity`, and a hold changes state only from the state the
/// change starts from, so of two racing writers (two instances, two workers) one wins and the
/// other sees no row and backs off. The CHECK constraint on `inventory_units` is the last guard.
public struct SQLHoldStore: HoldStore {
    private let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    public func setCapacity(_ capacities: [String: Int]) async throws {
        try await database.transaction { db in
            for (key, capacity) in capacities.sorted(by: { $0.key < $1.key }) {
                guard capacity >= 0 else {
                    throw ConciergeError(
                        .invalidInput, code: "invalid_capacity",
                        message: "The capacity of \(key) must be 0 or more, not \(capacity).")
                }
                let rows = try await db.query(
                    """
                    INSERT INTO inventory_units (unit_key, capacity, held, sold) VALUES (?, ?, 0, 0)
                    ON CONFLICT (unit_key) DO UPDATE SET capacity = excluded.capacity
                    WHERE inventory_units.held + inventory_units.sold <= excluded.capacity
                    RETURNING unit_key
                    """, [.text(key), SQLValue(capacity)])
                guard !rows.isEmpty else {
                    throw ConciergeError(
                        .invalidInput, code: "capacity_below_taken",
                        message:
                            "The capacity of \(key) cannot be \(capacity): more than that is already held or sold. Release or refund first."
                    )
                }
            }
        }
    }

    public func units(keys: [String]) async throws -> [InventoryUnit] {
        guard !keys.isEmpty else { return [] }
        return try await database.query(
            "SELECT * FROM inventory_units WHERE unit_key IN (\(Self.placeholders(keys.count))) ORDER BY unit_key",
            keys.map { .text($0) }
        ).map(Self.unit(from:))
    }

    public func place(_ hold: NewHold) async throws -> Hold {
        try await database.transaction { db in
            try await Self.place(hold, in: db)
        }
    }

    /// Places `hold` inside the caller's transaction (a vertical holding and writing its own
    /// rows at once). Throws `hold_unavailable` — which rolls the caller's transaction back.
    public static func place(_ hold: NewHold, in db: any SQLExecutor) async throws -> Hold {
        let short = try await take(hold.items, into: .held, in: db)
        guard short.isEmpty else { throw ConciergeError.holdUnavailable(short) }
        try await db.query(
            "INSERT INTO holds (id, owner_id, state, created_at, expires_at) VALUES (?, ?, 'held', ?, ?)",
            [.text(hold.id), .text(hold.ownerID), SQLValue(hold.createdAt), SQLValue(hold.expiresAt)])
        for item in hold.items {
            try await db.query(
                "INSERT INTO hold_items (hold_id, unit_key, quantity) VALUES (?, ?, ?)",
                [.text(hold.id), .text(item.unitKey), SQLValue(item.quantity)])
        }
        return Hold(
            id: hold.id, ownerID: hold.ownerID, state: .held, items: hold.items, createdAt: hold.createdAt,
            expiresAt: hold.expiresAt, orderID: nil)
    }

    public func hold(id: String) async throws -> Hold? {
        guard let row = try await database.query("SELECT * FROM holds WHERE id = ?", [.text(id)]).first else {
            return nil
        }
        return try await Self.hold(from: row, in: database)
    }

    public func extend(id: String, until: Date, now: Date) async throws -> Hold? {
        guard
            let row = try await database.query(
                "UPDATE holds SET expires_at = ? WHERE id = ? AND state = 'held' AND expires_at > ? RETURNING *",
                [SQLValue(until), .text(id), SQLValue(now)]
            ).first
        else { return nil }
        return try await Self.hold(from: row, in: database)
    }

    public func release(id: String, now: Date) async throws -> Hold? {
        try await end(id: id, from: "held", to: "released", now: now, releasing: true)
    }

    public func sell(id: String, orderID: String, now: Date) async throws -> Hold? {
        try await database.transaction { db in
            guard
                let row = try await db.query(
                    """
                    UPDATE holds SET state = 'sold', order_id = ?, ended_at = ?
                    WHERE id = ? AND state = 'held' AND expires_at > ? RETURNING *
                    """, [.text(orderID), SQLValue(now), .text(id), SQLValue(now)]
                ).first
            else { return nil }
            let hold = try await Self.hold(from: row, in: db)
            for item in hold.items {
                try await db.query(
                    "UPDATE inventory_units SET held = held - ?, sold = sold + ? WHERE unit_key = ?",
                    [SQLValue(item.quantity), SQLValue(item.quantity), .text(item.unitKey)])
            }
            return hold
        }
    }

    public func sellAfterLapse(id: String, orderID: String, now: Date) async throws -> Hold? {
        try await database.transaction { db in
            // Still held (the expiry job has not come by): its units are still counted as held.
            if let row = try await db.query(
                "UPDATE holds SET state = 'sold', order_id = ?, ended_at = ? WHERE id = ? AND state = 'held' RETURNING *",
                [.text(orderID), SQLValue(now), .text(id)]
            ).first {
                let hold = try await Self.hold(from: row, in: db)
                for item in hold.items {
                    try await db.query(
                        "UPDATE inventory_units SET held = held - ?, sold = sold + ? WHERE unit_key = ?",
                        [SQLValue(item.quantity), SQLValue(item.quantity), .text(item.unitKey)])
                }
                return hold
            }
            // Lapsed or released: its units went back to the stock and must be taken again.
            guard
                let row = try await db.query(
                    """
                    UPDATE holds SET state = 'sold', order_id = ?, ended_at = ?
                    WHERE id = ? AND state IN ('expired', 'released') RETURNING *
                    """, [.text(orderID), SQLValue(now), .text(id)]
                ).first
            else { return nil }
            let hold = try await Self.hold(from: row, in: db)
            let short = try await Self.take(hold.items, into: .sold, in: db)
            guard short.isEmpty else { throw ConciergeError.holdUnavailable(short) }
            return hold
        }
    }

    public func expireLapsedHolds(now: Date, limit: Int) async throws -> [Hold] {
        let due = try await database.query(
            "SELECT id FROM holds WHERE state = 'held' AND expires_at <= ? ORDER BY expires_at LIMIT ?",
            [SQLValue(now), SQLValue(limit)])
        var expired: [Hold] = []
        for candidate in due {
            if let hold = try await end(
                id: try candidate.string("id"), from: "held", to: "expired", now: now, releasing: true,
                onlyLapsed: true)
            {
                expired.append(hold)
            }
        }
        return expired
    }

    // MARK: Shared steps

    /// Moves a hold out of `from` and gives its units back, once: the conditional state change
    /// decides which of two racing callers does it.
    private func end(
        id: String, from: String, to: String, now: Date, releasing: Bool, onlyLapsed: Bool = false
    ) async throws -> Hold? {
        try await database.transaction { db in
            try await Self.end(
                id: id, from: from, to: to, now: now, releasing: releasing, onlyLapsed: onlyLapsed, in: db)
        }
    }

    /// The same in the caller's transaction (the order lifecycle moving an order and its hold).
    static func end(
        id: String, from: String, to: String, now: Date, releasing: Bool = true, onlyLapsed: Bool = false,
        in db: any SQLExecutor
    ) async throws -> Hold? {
        let lapsed = onlyLapsed ? " AND expires_at <= ?" : ""
        guard
            let row = try await db.query(
                "UPDATE holds SET state = ?, ended_at = ? WHERE id = ? AND state = ?\(lapsed) RETURNING *",
                [.text(to), SQLValue(now), .text(id), .text(from)] + (onlyLapsed ? [SQLValue(now)] : [])
            ).first
        else { return nil }
        let hold = try await Self.hold(from: row, in: db)
        if releasing {
            for item in hold.items {
                try await db.query(
                    "UPDATE inventory_units SET held = held - ? WHERE unit_key = ?",
                    [SQLValue(item.quantity), .text(item.unitKey)])
            }
        }
        return hold
    }

    public func returnSold(id: String, orderID: String, now: Date) async throws -> Hold? {
        try await database.transaction { db in try await Self.returnSold(id: id, orderID: orderID, now: now, in: db) }
    }

    /// Puts a sold hold's units back on sale, once (it becomes `released`), in the caller's
    /// transaction: the only way sold inventory returns, so no vertical writes the counters.
    static func returnSold(id: String, orderID: String, now: Date, in db: any SQLExecutor) async throws -> Hold? {
        guard
            let row = try await db.query(
                "UPDATE holds SET state = 'released', ended_at = ? WHERE id = ? AND state = 'sold' AND order_id = ? RETURNING *",
                [SQLValue(now), .text(id), .text(orderID)]
            ).first
        else { return nil }
        let hold = try await Self.hold(from: row, in: db)
        for item in hold.items {
            try await db.query(
                "UPDATE inventory_units SET sold = sold - ? WHERE unit_key = ?",
                [SQLValue(item.quantity), .text(item.unitKey)])
        }
        return hold
    }

    /// The two counters a hold takes units into.
    private enum TakenColumn: String {
        case held
        case sold
    }

    /// Adds each item's quantity to `column` where the free stock allows,
    /// in key order; answers the keys that were short (unknown keys included). The caller
    /// throws when any are, rolling back the ones that were taken.
    private static func take(_ items: [HoldItem], into taken: TakenColumn, in db: any SQLExecutor) async throws
        -> [String]
    {
        let column = taken.rawValue
        var short: [String] = []
        for item in items.sorted(by: { $0.unitKey < $1.unitKey }) {
            let taken = try await db.query(
                """
                UPDATE inventory_units SET \(column) = \(column) + ?
                WHERE unit_key = ? AND held + sold + ? <= capacity RETURNING unit_key
                """, [SQLValue(item.quantity), .text(item.unitKey), SQLValue(item.quantity)])
            if taken.isEmpty { short.append(item.unitKey) }
        }
        return short
    }

    private static func hold(from row: SQLRow, in db: any SQLExecutor) async throws -> Hold {
        let id = try row.string("id")
        let items = try await db.query(
            "SELECT unit_key, quantity FROM hold_items WHERE hold_id = ? ORDER BY unit_key", [.text(id)]
        ).map { HoldItem(unitKey: try $0.string("unit_key"), quantity: try $0.int("quantity")) }
        let stateName = try row.string("state")
        guard let state = Hold.State(rawValue: stateName) else {
            throw ConciergeError(
                .unavailable(retryAfterSeconds: nil), code: "corrupt_hold",
                message: "Hold \(id) has the unknown state '\(stateName)'; the database is newer than this server.")
        }
        return Hold(
            id: id, ownerID: try row.string("owner_id"), state: state, items: items,
            createdAt: try row.date("created_at"), expiresAt: try row.date("expires_at"),
            orderID: try row.optionalString("order_id"))
    }

    private static func unit(from row: SQLRow) throws -> InventoryUnit {
        InventoryUnit(
            key: try row.string("unit_key"), capacity: try row.int("capacity"), held: try row.int("held"),
            sold: try row.int("sold"))
    }

    static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }
}
