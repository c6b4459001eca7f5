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
        // The keys each statement sold, and the fewest left of any of them after the sale.
        func sell(_ keys: [String]) async throws -> (sold: Set<String>, left: Int) {
            let rows = try await db.query(
                """
                UPDATE inventory_units SET sold = sold + 1
                WHERE unit_key IN (\(placeholders(keys.count))) AND held + sold + 1 <= capacity
                RETURNING unit_key, capacity - held - sold AS left_over
                """, keys.map { .text($0) })
            return (
                Set(try rows.map { try $0.string("unit_key") }),
                try rows.map { try $0.int("left_over") }.min() ?? Int.max
            )
        }
        let first = try await sell(keys)
        guard first.sold.count < keys.count else { return max(0, first.left) }
        let rest = keys.filter { !first.sold.contains($0) }
        try await createUnits(rest, capacity: capacity, in: db)
        let more = try await sell(rest)
        let short = rest.filter { !more.sold.contains($0) }
        guard short.isEmpty else { throw ConciergeError.holdUnavailable(short) }
        return max(0, min(first.left, more.left))
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
