import ConciergeCore

/// Capacity changes a vertical asks of the platform's inventory in its own transaction: a seat
/// taken off sale for the house, a room type's count of rooms. Each is a conditional write that a
/// racing hold cannot slip past; the counters stay the platform's to write.
extension SQLHoldStore {
    /// Takes each unit off sale (capacity 0) where nothing of it is held or sold; answers the
    /// keys that were taken (the caller rolls back when any are).
    static func withdrawFromSale(_ keys: [String], in db: any SQLExecutor) async throws -> [String] {
        var taken: [String] = []
        for key in keys.sorted() {
            let rows = try await db.query(
                "UPDATE inventory_units SET capacity = 0 WHERE unit_key = ? AND held = 0 AND sold = 0 RETURNING unit_key",
                [.text(key)])
            if rows.isEmpty { taken.append(key) }
        }
        return taken
    }

    /// Puts units taken off sale back on sale with `capacity`; units on sale stay as they are.
    static func returnToSale(_ keys: [String], capacity: Int, in db: any SQLExecutor) async throws {
        for key in keys.sorted() {
            try await db.query(
                "UPDATE inventory_units SET capacity = ? WHERE unit_key = ? AND capacity = 0",
                [SQLValue(capacity), .text(key)])
        }
    }

    /// The keys of every unit whose key starts with `prefix`.
    static func unitKeys(prefix: String, in db: any SQLExecutor) async throws -> [String] {
        try await db.query("SELECT unit_key FROM inventory_units WHERE unit_key LIKE ?", [.text(prefix + "%")])
            .map { try $0.string("unit_key") }
    }

    /// Gives every unit starting with `prefix` the capacity `capacity`, never less than it has
    /// held and sold (units counted before their capacity was known).
    static func setCapacity(prefix: String, atLeast capacity: Int, in db: any SQLExecutor) async throws {
        try await db.query(
            """
            UPDATE inventory_units SET capacity = CASE WHEN held + sold > ? THEN held + sold ELSE ? END
            WHERE unit_key LIKE ?
            """, [SQLValue(capacity), SQLValue(capacity), .text(prefix + "%")])
    }

    /// Creates or re-sizes `keys` to `capacity` where what is held and sold still fits; answers
    /// the keys refused, each with what it has taken.
    static func setCapacity(_ keys: [String], to capacity: Int, in db: any SQLExecutor) async throws
        -> [(key: String, taken: Int)]
    {
        var refused: [String] = []
        for start in stride(from: 0, to: keys.count, by: 400) {
            let chunk = Array(keys[start..<min(start + 400, keys.count)])
            let changed = try await db.query(
                """
                INSERT INTO inventory_units (unit_key, capacity, held, sold)
                VALUES \(Array(repeating: "(?, ?, 0, 0)", count: chunk.count).joined(separator: ", "))
                ON CONFLICT (unit_key) DO UPDATE SET capacity = excluded.capacity
                WHERE inventory_units.held + inventory_units.sold <= excluded.capacity
                RETURNING unit_key
                """, chunk.flatMap { [.text($0), SQLValue(capacity)] })
            let done = Set(try changed.map { try $0.string("unit_key") })
            refused += chunk.filter { !done.contains($0) }
        }
        guard !refused.isEmpty else { return [] }
        let shown = Array(refused.prefix(500))
        let counts = try await db.query(
            "SELECT unit_key, held + sold AS taken FROM inventory_units WHERE unit_key IN (\(placeholders(shown.count)))",
            shown.map { .text($0) })
        let taken = Dictionary(try counts.map { (try $0.string("unit_key"), try $0.int("taken")) }) { a, _ in a }
        return refused.map { ($0, taken[$0] ?? 0) }
    }
}
