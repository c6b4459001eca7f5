import ConciergeCore
import ConciergeStore
import Foundation

/// Orders of every vertical for the operator, newest first, with their payments and refunds
/// from the platform ledger. Read only: a refund goes through the owning vertical's service.
///
/// The order list is the one query here (`OrderStore` reads single orders only); it belongs
/// beside `SQLOrderStore` and should move there. Payments and refunds come from
/// `SQLPaymentLedger`.
struct OperationsOrdersLedger: Sendable {
    struct Entry: Sendable {
        let order: OrderSummary
        let payments: [(payment: PaymentRecord, refunds: [RefundRecord])]
    }

    struct OrderSummary: Sendable {
        let id: String
        let vertical: String
        let reference: String
        let amountCents: Int
        let currency: String
        let state: String
        let createdAt: Date
    }

    let database: any SQLDatabase
    var payments: SQLPaymentLedger { SQLPaymentLedger(database: database) }

    init(database: any SQLDatabase) {
        self.database = database
    }

    /// Up to `limit` orders, newest first, of `vertical` and in `state` when given.
    func orders(vertical: String?, state: String?, limit: Int, offset: Int) async throws -> [Entry] {
        var conditions: [String] = []
        var binds: [SQLValue] = []
        if let vertical {
            conditions.append("vertical = ?")
            binds.append(.text(vertical))
        }
        if let state {
            conditions.append("state = ?")
            binds.append(.text(state))
        }
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        let rows = try await database.query(
            """
            SELECT id, vertical, reference, amount_cents, currency, state, created_at FROM orders \(filter)
            ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?
            """, binds + [SQLValue(limit), SQLValue(offset)])
        var entries: [Entry] = []
        for row in rows {
            let order = OrderSummary(
                id: try row.string("id"), vertical: try row.string("vertical"),
                reference: try row.string("reference"), amountCents: try row.int("amount_cents"),
                currency: try row.string("currency"), state: try row.string("state"),
                createdAt: try row.date("created_at"))
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
        let rows =
            if let vertical {
                try await database.query(
                    "SELECT DISTINCT state FROM orders WHERE vertical = ? ORDER BY state", [.text(vertical)])
            } else {
                try await database.query("SELECT DISTINCT state FROM orders ORDER BY state", [])
            }
        return try rows.map { try $0.string("state") }
    }
}
