import ConciergeCore

/// House seats: a seat of a show blocked by the box office is its inventory unit at capacity 0,
/// so the platform's holds (`held + sold + quantity <= capacity`) can never take it, and blocking
/// is one conditional write per seat that a racing hold cannot slip past.
extension SQLEventsStore {
    public func blockHouseSeats(showID: String, seatIDs: [String]) async throws {
        try await database.transaction { db in
            var taken: [String] = []
            for seat in seatIDs.sorted() {
                let rows = try await db.query(
                    """
                    UPDATE inventory_units SET capacity = 0 WHERE unit_key = ? AND held = 0 AND sold = 0
                    RETURNING unit_key
                    """, [.text(EventUnits.key(show: showID, seat: seat))])
                if rows.isEmpty { taken.append(seat) }
            }
            // Throwing rolls every seat of the request back: all of them are blocked or none.
            guard taken.isEmpty else { throw SeatsUnavailableError(seatIDs: taken) }
        }
    }

    public func releaseHouseSeats(showID: String, seatIDs: [String]) async throws {
        try await database.transaction { db in
            for seat in seatIDs.sorted() {
                try await db.query(
                    "UPDATE inventory_units SET capacity = 1 WHERE unit_key = ? AND capacity = 0",
                    [.text(EventUnits.key(show: showID, seat: seat))])
            }
        }
    }
}
