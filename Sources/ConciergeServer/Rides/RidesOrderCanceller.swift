import ConciergeCore
import ConciergeStore

/// Rides' customer cancellation for `/ops/orders`: the order's account is the rides customer, so
/// the operator's cancellation is `BookingService.cancel(reference:customer:)` as that customer
/// — the same 24-hour rule, the same owed refund the worker retries.
struct RidesOrderCanceller: OrderCanceller {
    let vertical = "rides"
    let orders: SQLOrderStore
    let identity: SQLIdentityStore
    let bookings: BookingService

    func cancelForCustomer(orderID: String) async throws -> String {
        guard let order = try await orders.order(id: orderID), order.vertical == vertical,
            let customerID = order.accountID, let customer = try await identity.customer(id: customerID)
        else { throw ConciergeError.orderWithoutCustomer }
        let wasPaid = order.state == BookingState.confirmed.rawValue
        let booking = try await bookings.cancel(reference: order.reference.code, customer: customer)
        return wasPaid ? OrderCancellationSummary.refunded(booking.priceCents) : OrderCancellationSummary.nothing
    }

    func refundInPart(orderID: String, cents: Int, reason: String) async throws -> String {
        guard let order = try await orders.order(id: orderID), order.vertical == vertical else {
            throw ConciergeError.orderWithoutCustomer
        }
        return OrderCancellationSummary.refundedInPart(
            try await bookings.refundInPart(orderID: orderID, cents: cents, reason: reason, actor: "operator"))
    }
}
