/// One rule for every vertical when a payment arrives for a hold: sell it if it is still held;
/// if it lapsed (or was released), honour the payment when its units are still free — take them
/// again and sell — and otherwise tell the caller to refund and tell the customer.
public struct LatePaymentPolicy: Sendable {
    public enum Decision: Sendable, Equatable {
        /// The units are sold to the order; `late` when the hold had lapsed and was taken again.
        case sold(Hold, late: Bool)
        /// The units went to someone else: refund the payment in full and tell the customer.
        case refund(unavailableUnits: [String])
    }

    private let store: any HoldStore
    private let clock: any TimeSource

    public init(store: any HoldStore, clock: any TimeSource) {
        self.store = store
        self.clock = clock
    }

    /// Decides, and when the answer is `sold`, has already sold: one call per payment, safe to
    /// repeat (a second webhook for the same order answers the same sale).
    public func paymentArrived(holdID: String, orderID: String) async throws -> Decision {
        let now = clock.now
        if let sold = try await store.sell(id: holdID, orderID: orderID, now: now) { return .sold(sold, late: false) }
        do {
            if let sold = try await store.sellAfterLapse(id: holdID, orderID: orderID, now: now) {
                return .sold(sold, late: true)
            }
        } catch let error as ConciergeError where error.code == "hold_unavailable" {
            let items = try await store.hold(id: holdID)?.items ?? []
            return .refund(unavailableUnits: try await unavailable(items))
        }
        guard let current = try await store.hold(id: holdID) else { throw ConciergeError.holdNotFound(holdID) }
        if current.state == .sold, current.orderID == orderID { return .sold(current, late: false) }
        // Sold to another order: this payment bought nothing.
        return .refund(unavailableUnits: current.items.map(\.unitKey))
    }

    /// The units of `items` without enough free stock now (every one of them when none is
    /// short any more: the stock changed again since the sale failed).
    private func unavailable(_ items: [HoldItem]) async throws -> [String] {
        let free = Dictionary(try await store.units(keys: items.map(\.unitKey)).map { ($0.key, $0.free) }) { a, _ in a }
        let short = items.filter { (free[$0.unitKey] ?? 0) < $0.quantity }.map(\.unitKey)
        return short.isEmpty ? items.map(\.unitKey) : short
    }
}
