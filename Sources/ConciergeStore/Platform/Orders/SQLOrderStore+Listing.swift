public import ConciergeCore

/// Orders of every vertical as lists show them, newest first, for the operator.
extension SQLOrderStore {
    /// Up to `limit` orders after `offset`, newest first, of `vertical` and in `state` when given.
    public func summaries(vertical: String?, state: String?, limit: Int, offset: Int) async throws -> [OrderSummary] {
        var conditions: [String] = []
        var binds: [SQLValue] = []
        if let vertical {
            conditions.append("vertical = ?")
            binds.append(.text(vertical))
        }
        if let state {
            conditions.append("state = ?")
            binds.append(.text(state))
        }
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        return try await database.query(
            """
            SELECT id, vertical, reference, amount_cents, currency, state, created_at FROM orders \(filter)
            ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?
            """, binds + [SQLValue(limit), SQLValue(offset)]
        ).map { row in
            OrderSummary(
                id: try row.string("id"), vertical: try row.string("vertical"),
                reference: try row.string("reference"), amountCents: try row.int("amount_cents"),
                currency: try row.string("currency"), state: try row.string("state"),
                createdAt: try row.date("created_at"))
        }
    }

    /// The states orders of `vertical` (or of every vertical) are in, for a filter.
    public func states(vertical: String?) async throws -> [String] {
        let rows =
            if let vertical {
                try await database.query(
                    "SELECT DISTINCT state FROM orders WHERE vertical = ? ORDER BY state", [.text(vertical)])
            } else {
                try await database.query("SELECT DISTINCT state FROM orders ORDER BY state", [])
            }
        return try rows.map { try $0.string("state") }
    }
}
