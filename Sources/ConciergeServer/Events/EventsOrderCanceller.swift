import ConciergeCore
import ConciergeStore

/// Events' customer cancellation for `/ops/orders`: `EventsService.cancel(orderID:accountID:)`
/// as the buyer's account — free with a full refund until the policy's hours before the show.
struct EventsOrderCanceller: OrderCanceller {
    let vertical = "events"
    let orders: SQLOrderStore
    let events: EventsService

    func cancelForCustomer(orderID: String) async throws -> String {
        guard let order = try await orders.order(id: orderID), order.vertical == vertical,
            let accountID = order.accountID
        else { throw ConciergeError.orderWithoutCustomer }
        let wasPaid = order.state == "confirmed"
        let booking = try await events.cancel(orderID: orderID, accountID: accountID)
        return wasPaid ? OrderCancellationSummary.refunded(booking.amountCents) : OrderCancellationSummary.nothing
    }

    func refundInPart(orderID: String, cents: Int, reason: String) async throws -> String {
        guard let order = try await orders.order(id: orderID), order.vertical == vertical else {
            throw ConciergeError.orderWithoutCustomer
        }
        return OrderCancellationSummary.refundedInPart(
            try await events.refundInPart(orderID: orderID, cents: cents, reason: reason, actor: "operator"))
    }
}
