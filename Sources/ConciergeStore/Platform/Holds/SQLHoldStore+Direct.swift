import ConciergeCore

/// Inventory sold without a hold (a stay paid at the hotel is confirmed at once) and given back
/// the same way. The platform keeps the counters: a vertical never writes `inventory_units`.
extension SQLHoldStore {
    /// Sells one of each unit while held plus sold stays within its capacity, creating units
    /// nobody has used yet with `capacity`: one conditional update for all units, and a second
    /// only for units created now. Throws `hold_unavailable` naming the full ones. Returns how
    /// many are left of the scarcest unit after the sale (a stay's rooms left on its fullest
    /// night), read from the updates themselves, so the answer needs no query of its own.
    @discardableResult
    static func sellWithoutHold(_ keys: [String], capacity: Int, in db: any SQLExecutor) async throws -> Int {
        let sellSQL = { (count: Int) in
            """
            UPDATE inventory_units SET sold = sold + 1
            WHERE unit_key IN (\(placeholders(count))) AND held + sold + 1 <= capacity
            RETURNING unit_key, capacity - held - sold AS left_over
            """
        }
        var left = Int.max
        var sold = Set<String>()
        for row in try await db.query(sellSQL(keys.count), keys.map { .text($0) }) {
            sold.insert(try row.string("unit_key"))
            left = min(left, try row.int("left_over"))
        }
        guard sold.count < keys.count else { return max(0, left) }
        let rest = keys.filter { !sold.contains($0) }
        try await createUnits(rest, capacity: capacity, in: db)
        var more = Set<String>()
        for row in try await db.query(sellSQL(rest.count), rest.map { .text($0) }) {
            more.insert(try row.string("unit_key"))
            left = min(left, try row.int("left_over"))
        }
        let short = rest.filter { !more.contains($0) }
        guard short.isEmpty else { throw ConciergeError.holdUnavailable(short) }
        return max(0, left)
    }

    /// Gives back one of each unit sold without a hold, once per caller (the caller's conditional
    /// state change decides that); never below zero.
    static func returnWithoutHold(_ keys: [String], in db: any SQLExecutor) async throws {
        guard !keys.isEmpty else { return }
        try await db.query(
            "UPDATE inventory_units SET sold = sold - 1 WHERE unit_key IN (\(placeholders(keys.count))) AND sold > 0",
            keys.map { .text($0) })
    }

    /// The units nobody has used yet, with `capacity` (a room type's count of rooms).
    static func createUnits(_ keys: [String], capacity: Int, in db: any SQLExecutor) async throws {
        // In chunks: a venue's thousands of seats stay under every engine's limit of parameters.
        for start in stride(from: 0, to: keys.count, by: 400) {
            let chunk = keys[start..<min(start + 400, keys.count)]
            try await db.query(
                """
                INSERT INTO inventory_units (unit_key, capacity, held, sold)
                VALUES \(Array(repeating: "(?, ?, 0, 0)", count: chunk.count).joined(separator: ", "))
                ON CONFLICT (unit_key) DO NOTHING
                """, chunk.flatMap { [.text($0), SQLValue(max(0, capacity))] })
        }
    }
}
