import ConciergeCore
import ConciergeStore
import Foundation
import Hummingbird

/// The operations API on orders of any vertical: a partial refund through the platform's
/// lifecycle (`POST /admin/orders/{id}/refunds`). The order's own vertical words the customer's
/// message; the lifecycle decides what may be refunded.
struct AdminOrdersController {
    let orders: SQLOrderStore
    let cancellers: [String: any OrderCanceller]
    let token: String

    struct RefundRequest: Decodable {
        let amountCents: Int
        let reason: String
    }

    struct RefundAnswer: Encodable {
        let orderId: String
        let reference: String
        let refundedCents: Int
        let summary: String
    }

    func addRoutes(to router: Router<AppRequestContext>) {
        router.group("admin")
            .add(middleware: AdminTokenMiddleware(token: token))
            .post("orders/:id/refunds", use: refund)
    }

    @Sendable func refund(request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(RefundRequest.self, context: context)
        let reason = body.reason.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...200).contains(reason.count) else {
            throw ConciergeError(
                .invalidInput, code: "invalid_reason",
                message: "Say in 1 to 200 characters why the money goes back; the customer reads it.")
        }
        let id = try context.parameters.require("id")
        guard let order = try await orders.order(id: id), let canceller = cancellers[order.vertical] else {
            throw ConciergeError(.notFound, code: "order_not_found", message: "There is no such order.")
        }
        let summary = try await canceller.refundInPart(orderID: id, cents: body.amountCents, reason: reason)
        context.logger.info("operator refunded \(body.amountCents) cents of order \(order.reference.code)")
        return try jsonResponse(
            RefundAnswer(
                orderId: id, reference: order.reference.code, refundedCents: body.amountCents, summary: summary),
            status: .created)
    }
}
