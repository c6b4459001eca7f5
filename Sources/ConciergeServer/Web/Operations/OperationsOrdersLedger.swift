import ConciergeCore
import ConciergeStore
import Foundation

/// Orders of every vertical for the operator, newest first, with their payments and refunds
/// from the platform ledger. Read only: a refund goes through the owning vertical's service.
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
            var ledger: [(payment: PaymentRecord, refunds: [RefundRecord])] = []
            for payment in try await payments.payments(orderID: order.id) {
                ledger.append((payment, try await payments.refunds(paymentID: payment.id)))
            }
            entries.append(Entry(order: order, payments: ledger))
        }
        return entries
    }

    /// The states orders of `vertical` (or of every vertical) are in, for the filter.
    func states(vertical: String?) async throws -> [String] {
        try await orders.states(vertical: vertical)
    }
}
