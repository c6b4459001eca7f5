public import ConciergeCore

/// A vertical's own row of an order (a booking, a reservation), moved by the lifecycle inside
/// the transaction that moves the order: the two never disagree.
public protocol VerticalOrderRows: Sendable {
    /// The vertical's name, as in `orders.vertical`.
    var vertical: String { get }
    /// Moves the vertical's row for `transition` of `order` in `db`, conditionally on its own
    /// state. Returns the vertical's state name now, or nil when its row refuses the move (a
    /// ride whose chauffeur is assigned is not cancelled here): then nothing is written.
    func move(_ transition: OrderTransition, of order: LifecycleOrder, in db: any SQLExecutor) async throws -> String?
}
