import ConciergeCore
import ConciergeStore
import Foundation

/// Orders of every vertical for the operator, newest first, with their payments and refunds
/// from the platform ledger. Read only: a cancellation and its refund go through the owning
/// vertical's `OrderCanceller`.
struct OperationsOrdersLedger: Sendable {
    struct Entry: Sendable {
        let order: OrderSummary
        let payments: [(payment: PaymentRecord, refunds: [RefundRecord])]
    }

    let orders: SQLOrderStore
    let payments: SQLPaymentLedger

    init(database: any SQLDatabase) {
        self.orders = SQLOrderStore(database: database)
        self.payments = SQLPaymentLedger(database: database)
    }

    /// Up to `limit` orders, newest first, of `vertical` and in `state` when given.
    func orders(vertical: String?, state: String?, limit: Int, offset: Int) async throws -> [Entry] {
        var entries: [Entry] = []
        for order in try await orders.summaries(vertical: vertical, state: state, limit: limit, offset: offset) {
            entries.append(try await entry(order))
        }
        return entries
    }

    /// One order with its ledger, for the cancellation's confirm page; nil when there is none.
    func order(id: String) async throws -> Entry? {
        guard let order = try await orders.order(id: id) else { return nil }
        return try await entry(
            OrderSummary(
                id: order.id, vertical: order.vertical, reference: order.reference.code,
                amountCents: order.amountCents, currency: order.currency, state: order.state,
                createdAt: order.createdAt))
    }

    private func entry(_ order: OrderSummary) async throws -> Entry {
        var ledger: [(payment: PaymentRecord, refunds: [RefundRecord])] = []
        for payment in try await payments.payments(orderID: order.id) {
            ledger.append((payment, try await payments.refunds(paymentID: payment.id)))
        }
        return Entry(order: order, payments: ledger)
    }

    /// The states orders of `vertical` (or of every vertical) are in, for the filter.
    func states(vertical: String?) async throws -> [String] {
        try await orders.states(vertical: vertical)
    }
}
