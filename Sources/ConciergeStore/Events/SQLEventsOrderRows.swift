public import ConciergeCore

/// A seat order's booking row, moved by the platform's lifecycle in its transaction. Seats go
/// back on sale through the order's hold, never here.
public struct SQLEventsOrderRows: VerticalOrderRows {
    public var vertical: String { EventsService.vertical }

    public init() {}

    public func move(_ transition: OrderTransition, of order: LifecycleOrder, in db: any SQLExecutor) async throws
        -> String?
    {
        let to = Self.state(transition.to)
        let from = Set(transition.from.map(Self.state)).sorted()
        let moved = try await db.query(
            """
            UPDATE events_bookings SET state = ?, updated_at = ?
            WHERE order_id = ? AND state IN (\(SQLOrderLifecycleStore.marks(from.count))) RETURNING order_id
            """, [.text(to), SQLValue(transition.event.at), .text(order.id)] + from.map { .text($0) })
        return moved.isEmpty ? nil : to
    }

    static func state(_ status: OrderStatus) -> String {
        status.stateName(open: EventBooking.State.pending.rawValue)
    }
}
