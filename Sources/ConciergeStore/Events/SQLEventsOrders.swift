public import ConciergeCore
import Foundation

extension SQLEventsStore {
    public func orders(showID: String?, state: EventBooking.State?, limit: Int, offset: Int) async throws
        -> [EventBooking]
    {
        var conditions = ["1 = 1"]
        var binds: [SQLValue] = []
        if let showID {
            conditions.append("b.show_id = ?")
            binds.append(.text(showID))
        }
        if let state {
            conditions.append("b.state = ?")
            binds.append(.text(state.rawValue))
        }
        return try await bookings(
            where: conditions.joined(separator: " AND "), binds, in: database, limit: limit, offset: offset)
    }

    public func checkIns(orderID: String) async throws -> [SeatCheckIn] {
        try await database.query(
            "SELECT seat_id, gate, at FROM events_checkins WHERE order_id = ? ORDER BY at, seat_id", [.text(orderID)]
        ).map { SeatCheckIn(seatID: try $0.string("seat_id"), gate: try $0.string("gate"), at: try $0.date("at")) }
    }
}
