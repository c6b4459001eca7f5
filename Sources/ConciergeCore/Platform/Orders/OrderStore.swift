/// Orders as the platform keeps them. Verticals write an order in the same transaction as their
/// own row (the store's `insert(_:event:in:)` takes the transaction), and read it back here.
public protocol OrderStore: Sendable {
    func order(id: String) async throws -> Order?
    func order(reference: String) async throws -> Order?
    /// The order's log, oldest first.
    func events(orderID: String) async throws -> [OrderEvent]
    /// Whether an order already has this reference code (every vertical shares the space).
    func isReferenceTaken(_ code: String) async throws -> Bool
}
