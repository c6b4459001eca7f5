public import ConciergeCore

/// A ride's booking row and its log, moved by the platform's lifecycle in its transaction. The
/// platform's `confirmed` is rides' `confirmed` only: a ride dispatch moved on (a chauffeur
/// assigned, en route, …) refuses the move, so the customer cannot cancel it from under the
/// chauffeur.
public struct SQLRidesOrderRows: VerticalOrderRows {
    public var vertical: String { BookingService.vertical }

    public init() {}

    public func move(_ transition: OrderTransition, of order: LifecycleOrder, in db: any SQLExecutor) async throws
        -> String?
    {
        // A move that keeps the status (a refund of a payment that arrived after the booking was
        // cancelled, or of another amount) keeps the ride's own state, whatever dispatch made it.
        let keeps = transition.from == [transition.to]
        let from =
            keeps
            ? BookingState.allCases.filter { OrderStatus(verticalState: $0.rawValue) == transition.to }.map(\.rawValue)
            : Set(transition.from.map(Self.state)).map(\.rawValue).sorted()
        let moved = try await db.query(
            """
            UPDATE bookings SET state = \(keeps ? "state" : "?")
            WHERE id = ? AND state IN (\(SQLOrderLifecycleStore.marks(from.count))) RETURNING state
            """,
            (keeps ? [] : [.text(Self.state(transition.to).rawValue)]) + [.text(order.id)] + from.map { .text($0) })
        guard let row = moved.first else { return nil }
        let event = transition.event
        try await SQLBookingStore.insert(
            BookingEvent(
                bookingID: order.id, at: event.at, type: event.type, actor: event.actor,
                detail: Self.ridesWords(event.detail)),
            db: db)
        return try row.string("state")
    }

    static func state(_ status: OrderStatus) -> BookingState {
        BookingState(rawValue: status.stateName(open: BookingState.awaitingPayment.rawValue)) ?? .confirmed
    }

    /// The lifecycle's account of a move in rides' words, for the ride's own log (what the
    /// dispatch pages and the admin API show): a ride has a quote, not a hold, and no inventory.
    static func ridesWords(_ detail: String) -> String {
        detail.replacingOccurrences(of: "; the inventory goes back on sale", with: "")
            .replacingOccurrences(of: "the hold lapsed", with: "the quote expired")
            .replacingOccurrences(of: "the order", with: "the booking")
    }
}
