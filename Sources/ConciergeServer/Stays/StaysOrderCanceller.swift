import ConciergeCore
import ConciergeStore

/// Stays' guest cancellation for `/ops/orders`: the order's reservation cancelled by
/// `StaysService.cancel(id:guest:)` as its guest — the hotel's free-cancellation hours, the first
/// night kept when it is late, the rest refunded.
struct StaysOrderCanceller: OrderCanceller {
    let vertical = "stays"
    let orders: SQLOrderStore
    let reservations: SQLStaysStore
    let accounts: StaysAccountService
    let stays: StaysService

    func cancelForCustomer(orderID: String) async throws -> String {
        guard let order = try await orders.order(id: orderID), order.vertical == vertical,
            let accountID = order.accountID, let reservation = try await reservations.reservation(orderID: orderID)
        else { throw ConciergeError.orderWithoutCustomer }
        let guest = try await accounts.guest(accountID: accountID)
        let cancelled = try await stays.cancel(id: reservation.id, guest: guest)
        return OrderCancellationSummary.refunded(cancelled.refundedCents)
    }

    func refundInPart(orderID: String, cents: Int, reason: String) async throws -> String {
        guard let order = try await orders.order(id: orderID), order.vertical == vertical else {
            throw ConciergeError.orderWithoutCustomer
        }
        return OrderCancellationSummary.refundedInPart(
            try await stays.refundInPart(orderID: orderID, cents: cents, reason: reason, actor: "operator"))
    }
}
