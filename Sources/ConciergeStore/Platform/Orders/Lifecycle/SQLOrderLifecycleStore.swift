public import ConciergeCore
public import Foundation

/// `OrderLifecycleStore` in SQL both engines understand. A transition is one transaction whose
/// first write is the conditional change of `orders.status` (and `paid_at`): of two instances
/// racing on one order, one sees its row come back and the other writes nothing.
public struct SQLOrderLifecycleStore: OrderLifecycleStore {
    let database: any SQLDatabase
    let rows: [String: any VerticalOrderRows]

    public init(database: any SQLDatabase, rows: [any VerticalOrderRows]) {
        self.database = database
        self.rows = Dictionary(rows.map { ($0.vertical, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Thrown inside a transition to roll it back: nothing is written and the caller hears nil.
    private struct Refused: Error {}

    public func order(id: String) async throws -> LifecycleOrder? {
        try await Self.order(id: id, in: database)
    }

    public func apply(_ transition: OrderTransition) async throws -> LifecycleOrder? {
        do {
            return try await database.transaction { db in
                try await apply(transition, in: db)
            }
        } catch is Refused {
            return nil
        }
    }

    /// The first write is the conditional change of the order's status; its row comes back with
    /// it, so nothing is read before the writer has something to do (on SQLite every statement
    /// here holds the one writer).
    private func apply(_ transition: OrderTransition, in db: any SQLExecutor) async throws -> LifecycleOrder? {
        let at = transition.event.at
        let from = transition.from.map(\.rawValue).sorted()
        guard
            let row = try await db.query(
                """
                UPDATE orders SET status = ?, updated_at = ?,
                    paid_at = CASE WHEN ? = 1 THEN COALESCE(paid_at, ?) ELSE paid_at END
                WHERE id = ? AND status IN (\(Self.marks(from.count)))\(transition.onlyIfUnpaid ? " AND paid_at IS NULL" : "")
                RETURNING *
                """,
                [
                    .text(transition.to.rawValue), SQLValue(at), SQLValue(transition.paid ? 1 : 0), SQLValue(at),
                    .text(transition.orderID),
                ] + from.map { .text($0) }
            ).first
        else { return nil }
        let order = try Self.order(from: row, payment: nil)
        if let owed = transition.owedRefund {
            let inserted = try await db.query(
                """
                INSERT INTO refunds_owed (key, order_id, payment_id, amount_cents, currency, reason, created_at,
                    next_attempt_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO NOTHING RETURNING key
                """,
                [
                    .text(owed.key), .text(owed.orderID), .text(owed.paymentID), SQLValue(owed.amountCents),
                    .text(owed.currency), .text(owed.reason), SQLValue(owed.createdAt), SQLValue(owed.nextAttemptAt),
                ])
            // Owed already: this cause was settled before (a repeated delivery).
            guard !inserted.isEmpty else { throw Refused() }
            // Never more owed back than was paid, whatever the causes: the order's row, updated
            // first, keeps two transitions of one order from passing this check together.
            let totals = try await db.query(
                """
                SELECT CAST(COALESCE((SELECT SUM(amount_cents) FROM refunds_owed WHERE payment_id = ?), 0) AS BIGINT) AS owed,
                    CAST(COALESCE((SELECT amount_cents FROM payments WHERE id = ?), 0) AS BIGINT) AS paid
                """, [.text(owed.paymentID), .text(owed.paymentID)])
            let owedInAll = try totals.first?.int("owed") ?? 0
            let paid = try totals.first?.int("paid") ?? 0
            guard owedInAll <= max(paid, owed.amountCents) else { throw Refused() }
        }
        var state = transition.to.rawValue
        if let vertical = rows[order.vertical] {
            guard let moved = try await vertical.move(transition, of: order, in: db) else { throw Refused() }
            state = moved
        }
        try await db.query("UPDATE orders SET state = ? WHERE id = ?", [.text(state), .text(order.id)])
        try await SQLOrderStore.append(transition.event, in: db)
        if let holdID = order.holdID, let change = transition.hold {
            switch change {
            case .release: _ = try await SQLHoldStore.end(id: holdID, from: "held", to: "released", now: at, in: db)
            case .returnSold: _ = try await SQLHoldStore.returnSold(id: holdID, orderID: order.id, now: at, in: db)
            }
        }
        if let status = transition.paymentStatus {
            try await db.query(
                "UPDATE payments SET status = ? WHERE order_id = ?", [.text(status.rawValue), .text(order.id)])
        }
        if let message = transition.notification { try await OutboxWriter.enqueue(message, in: db, at: at) }
        return order.moved(toState: state)
    }

    public func lapsedOrders(vertical: String, now: Date, limit: Int) async throws -> [LifecycleOrder] {
        var orders: [LifecycleOrder] = []
        for row in try await database.query(
            """
            SELECT id FROM orders WHERE vertical = ? AND status IN ('held', 'awaiting_payment') AND expires_at <= ?
            ORDER BY expires_at, id LIMIT ?
            """, [.text(vertical), SQLValue(now), SQLValue(limit)])
        {
            if let order = try await Self.order(id: try row.string("id"), in: database) { orders.append(order) }
        }
        return orders
    }

    public func owedRefunds(due now: Date, limit: Int) async throws -> [OwedRefund] {
        try await database.query(
            """
            SELECT * FROM refunds_owed WHERE paid_at IS NULL AND next_attempt_at <= ?
            ORDER BY next_attempt_at, key LIMIT ?
            """, [SQLValue(now), SQLValue(limit)]
        ).map(Self.owed(from:))
    }

    public func owedRefunds(orderID: String) async throws -> [(refund: OwedRefund, paidAt: Date?)] {
        try await database.query(
            "SELECT * FROM refunds_owed WHERE order_id = ? ORDER BY created_at, key",
            [
                .text(orderID)
            ]
        ).map { (try Self.owed(from: $0), try $0.optionalDate("paid_at")) }
    }

    public func refundPaid(key: String, refund: RefundRecord) async throws -> Bool {
        try await database.transaction { db in
            let marked = try await db.query(
                "UPDATE refunds_owed SET paid_at = ?, refund_id = ? WHERE key = ? AND paid_at IS NULL RETURNING key",
                [SQLValue(refund.createdAt), .text(refund.providerRefundID), .text(key)])
            guard !marked.isEmpty else { return false }
            try await SQLPaymentLedger.recordRefund(refund, in: db)
            return true
        }
    }

    public func refundFailed(key: String, retryAt: Date) async throws {
        try await database.query(
            "UPDATE refunds_owed SET attempts = attempts + 1, next_attempt_at = ? WHERE key = ? AND paid_at IS NULL",
            [SQLValue(retryAt), .text(key)])
    }

    public func recordPaymentStatus(paymentID: String, status: PaymentStatus) async throws {
        try await database.query(
            "UPDATE payments SET status = ? WHERE id = ? AND status <> 'paid'",
            [.text(status.rawValue), .text(paymentID)])
    }

    // MARK: Rows

    static func order(id: String, in db: any SQLExecutor) async throws -> LifecycleOrder? {
        guard let row = try await db.query("SELECT * FROM orders WHERE id = ?", [.text(id)]).first else { return nil }
        let payment = try await db.query(
            "SELECT * FROM payments WHERE order_id = ? ORDER BY created_at DESC, id DESC LIMIT 1", [.text(id)]
        ).first.map(SQLPaymentLedger.payment(from:))
        return try order(from: row, payment: payment)
    }

    static func order(from row: SQLRow, payment: PaymentRecord?) throws -> LifecycleOrder {
        let id = try row.string("id")
        let statusName = try row.string("status")
        guard let status = OrderStatus(rawValue: statusName) else {
            throw ConciergeError(
                .unavailable(retryAfterSeconds: nil), code: "corrupt_order",
                message: "Order \(id) has the unknown status '\(statusName)'; the database is newer than this server.")
        }
        return LifecycleOrder(
            id: id, vertical: try row.string("vertical"), accountID: try row.optionalString("account_id"),
            reference: try row.string("reference"), amountCents: try row.int("amount_cents"),
            currency: try row.string("currency"), status: status, verticalState: try row.string("state"),
            holdID: try row.optionalString("hold_id"), expiresAt: try row.optionalDate("expires_at"),
            paidAt: try row.optionalDate("paid_at"), payment: payment)
    }

    static func owed(from row: SQLRow) throws -> OwedRefund {
        OwedRefund(
            key: try row.string("key"), orderID: try row.string("order_id"), paymentID: try row.string("payment_id"),
            amountCents: try row.int("amount_cents"), currency: try row.string("currency"),
            reason: try row.string("reason"), createdAt: try row.date("created_at"), attempts: try row.int("attempts"),
            nextAttemptAt: try row.date("next_attempt_at"))
    }

    static func marks(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }
}
