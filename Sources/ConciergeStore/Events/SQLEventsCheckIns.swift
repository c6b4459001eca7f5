public import ConciergeCore
public import Foundation

extension SQLEventsStore {
    public func booking(ticketSecret: String) async throws -> EventBooking? {
        guard
            let row = try await database.query(
                "SELECT order_id FROM events_tickets WHERE secret = ?", [.text(ticketSecret)]
            ).first
        else { return nil }
        return try await booking(orderID: try row.string("order_id"))
    }

    public func admit(orderID: String, seatIDs: [String], gate: String, at: Date) async throws -> (
        admitted: [String], firstAt: Date?
    ) {
        try await database.transaction { db in
            var admitted: [String] = []
            for seat in seatIDs.sorted() {
                let inserted = try await db.query(
                    """
                    INSERT INTO events_checkins (order_id, seat_id, gate, at) VALUES (?, ?, ?, ?)
                    ON CONFLICT (order_id, seat_id) DO NOTHING RETURNING seat_id
                    """, [.text(orderID), .text(seat), .text(gate), SQLValue(at)])
                if !inserted.isEmpty { admitted.append(seat) }
            }
            let first = try await db.query(
                "SELECT MIN(at) AS first_at FROM events_checkins WHERE order_id = ?", [.text(orderID)]
            ).first
            return (admitted, try first?.optionalDate("first_at"))
        }
    }

    public func checkedInSeats(showID: String) async throws -> Int {
        let row = try await database.query(
            """
            SELECT COUNT(*) AS admitted FROM events_checkins c JOIN events_bookings b ON b.order_id = c.order_id
            WHERE b.show_id = ?
            """, [.text(showID)]
        ).first
        return try row?.int("admitted") ?? 0
    }

    public func markCancelled(showID: String) async throws {
        try await database.query("UPDATE events_shows SET cancelled = 1 WHERE id = ?", [.text(showID)])
    }
}
