public import ConciergeCore
import Foundation

/// `PaymentLedger` in SQL both engines understand. Owners write payments inside their own
/// transaction through `insert(_:in:)`.
public struct SQLPaymentLedger: PaymentLedger {
    private let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    /// Writes the payment in the caller's transaction (the one that writes its order).
    public static func insert(_ payment: PaymentRecord, in db: any SQLExecutor) async throws {
        let rows = try rows(of: payment)
        try await db.query(
            "INSERT INTO payments (\(rows.columns.joined(separator: ", "))) VALUES \(rows.placeholders)", rows.binds)
    }

    static func rows(of payment: PaymentRecord) throws -> InsertRows {
        let metadata = String(decoding: try JSONEncoder().encode(payment.metadata), as: UTF8.self)
        return InsertRows(
            table: "payments",
            row: [
                ("id", .text(payment.id)), ("provider", .text(payment.provider)),
                ("provider_payment_id", .text(payment.providerPaymentID)),
                ("owner_vertical", .text(payment.ownerVertical)), ("order_id", .text(payment.orderID)),
                ("amount_cents", SQLValue(payment.amountCents)), ("currency", .text(payment.currency)),
                ("status", .text(payment.status.rawValue)), ("refunded_cents", SQLValue(payment.refundedCents)),
                ("checkout_url", .text(payment.checkoutURL)), ("description", .text(payment.description)),
                ("redirect_url", .text(payment.redirectURL)), ("metadata", .text(metadata)),
                ("expires_at", SQLValue(payment.expiresAt)), ("created_at", SQLValue(payment.createdAt)),
            ])
    }

    /// Records a refund in the caller's transaction; the payment's refunded amount grows with
    /// it, never past the amount paid (the sandbox may already have marked it in full).
    @discardableResult
    public static func recordRefund(_ refund: RefundRecord, in db: any SQLExecutor) async throws -> Bool {
        let inserted = try await db.query(
            """
            INSERT INTO refunds (id, payment_id, provider_refund_id, amount_cents, currency, reason, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (payment_id, provider_refund_id) DO NOTHING RETURNING id
            """,
            [
                .text(refund.id), .text(refund.paymentID), .text(refund.providerRefundID), SQLValue(refund.amountCents),
                .text(refund.currency), .text(refund.reason), SQLValue(refund.createdAt),
            ])
        guard !inserted.isEmpty else { return false }
        try await db.query(
            """
            UPDATE payments SET refunded_cents =
                CASE WHEN refunded_cents + ? > amount_cents THEN amount_cents ELSE refunded_cents + ? END
            WHERE id = ?
            """, [SQLValue(refund.amountCents), SQLValue(refund.amountCents), .text(refund.paymentID)])
        return true
    }

    static func payment(from row: SQLRow) throws -> PaymentRecord {
        let status = try row.string("status")
        guard let paymentStatus = PaymentStatus(rawValue: status) else {
            throw ConciergeError(
                .upstreamFailed, code: "unknown_payment_status",
                message: "Payment \(try row.string("id")) has the unknown status '\(status)'; fix the row or upgrade.")
        }
        return PaymentRecord(
            id: try row.string("id"), provider: try row.string("provider"),
            providerPaymentID: try row.string("provider_payment_id"), ownerVertical: try row.string("owner_vertical"),
            orderID: try row.string("order_id"), amountCents: try row.int("amount_cents"),
            currency: try row.string("currency"), status: paymentStatus, refundedCents: try row.int("refunded_cents"),
            checkoutURL: try row.string("checkout_url"), description: try row.string("description"),
            redirectURL: try row.string("redirect_url"),
            metadata: (try? JSONDecoder().decode([String: String].self, from: Data(try row.string("metadata").utf8)))
                ?? [:],
            expiresAt: try row.date("expires_at"), createdAt: try row.date("created_at"))
    }

    public func payment(provider: String, providerPaymentID: String) async throws -> PaymentRecord? {
        try await database.query(
            "SELECT * FROM payments WHERE provider = ? AND provider_payment_id = ?",
            [.text(provider), .text(providerPaymentID)]
        ).first.map(Self.payment(from:))
    }

    public func payments(orderID: String) async throws -> [PaymentRecord] {
        try await database.query(
            "SELECT * FROM payments WHERE order_id = ? ORDER BY created_at, id", [.text(orderID)]
        ).map(Self.payment(from:))
    }

    public func recordStatus(paymentID: String, status: PaymentStatus) async throws {
        try await database.query(
            "UPDATE payments SET status = ? WHERE id = ?", [.text(status.rawValue), .text(paymentID)])
    }

    @discardableResult
    public func recordRefund(_ refund: RefundRecord) async throws -> Bool {
        try await database.transaction { db in try await Self.recordRefund(refund, in: db) }
    }

    public func refunds(paymentID: String) async throws -> [RefundRecord] {
        try await database.query(
            "SELECT * FROM refunds WHERE payment_id = ? ORDER BY created_at, id", [.text(paymentID)]
        ).map {
            RefundRecord(
                id: try $0.string("id"), paymentID: try $0.string("payment_id"),
                providerRefundID: try $0.string("provider_refund_id"), amountCents: try $0.int("amount_cents"),
                currency: try $0.string("currency"), reason: try $0.string("reason"),
                createdAt: try $0.date("created_at"))
        }
    }
}
