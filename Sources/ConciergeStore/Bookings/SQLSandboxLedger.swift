public import ConciergeCore
public import Foundation

/// The sandbox provider's payments: the platform `payments` rows whose provider is "sandbox".
public struct SQLSandboxLedger: SandboxLedger {
    private let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    /// The payment as the sandbox sees it: the `payments` row, with what the sandbox itself has
    /// refunded (its `sandbox_refunds`) rather than what the ledger has recorded, as Mollie's
    /// answer would be. The two differ only between a refund and its recording.
    public func payment(id: String) async throws -> PaymentRecord? {
        guard
            let row = try await database.query(
                """
                SELECT p.*, CAST(COALESCE(
                    (SELECT SUM(r.amount_cents) FROM sandbox_refunds r WHERE r.provider_payment_id = p.provider_payment_id),
                    0) AS BIGINT) AS sandbox_refunded_cents
                FROM payments p WHERE p.provider = 'sandbox' AND p.provider_payment_id = ?
                """, [.text(id)]
            ).first
        else { return nil }
        var payment = try SQLPaymentLedger.payment(from: row)
        payment.refundedCents = try row.int("sandbox_refunded_cents")
        return payment
    }

    public func complete(id: String, status: PaymentStatus) async throws -> Bool {
        !(try await database.query(
            """
            UPDATE payments SET status = ? WHERE provider = 'sandbox' AND provider_payment_id = ? AND status = 'open'
            RETURNING id
            """, [.text(status.rawValue), .text(id)]
        ).isEmpty)
    }

    public func cancel(id: String) async throws {
        try await database.query(
            """
            UPDATE payments SET status = 'canceled'
            WHERE provider = 'sandbox' AND provider_payment_id = ? AND status IN ('open', 'pending')
            """, [.text(id)])
    }

    public func refund(id: String, amountCents: Int, idempotencyKey: String, at: Date) async throws -> Int {
        try await database.transaction(lockKeys: ["sandbox-refund:\(id)"]) { tx in
            if let earlier = try await tx.query(
                "SELECT amount_cents FROM sandbox_refunds WHERE provider_payment_id = ? AND idempotency_key = ?",
                [.text(id), .text(idempotencyKey)]
            ).first {
                return try earlier.int("amount_cents")
            }
            guard
                let payment = try await tx.query(
                    """
                    SELECT CAST(p.amount_cents - COALESCE(
                        (SELECT SUM(r.amount_cents) FROM sandbox_refunds r WHERE r.provider_payment_id = ?), 0)
                        AS BIGINT) AS left_cents
                    FROM payments p WHERE p.provider = 'sandbox' AND p.provider_payment_id = ? AND p.status = 'paid'
                    """, [.text(id), .text(id)]
                ).first
            else { return 0 }
            let refunded = min(max(0, amountCents), try payment.int("left_cents"))
            try await tx.query(
                """
                INSERT INTO sandbox_refunds (provider_payment_id, idempotency_key, amount_cents, created_at)
                VALUES (?, ?, ?, ?)
                """, [.text(id), .text(idempotencyKey), SQLValue(refunded), SQLValue(at)])
            // The `payments` row's refunded_cents is the ledger's: the refund's owner records it
            // (`recordRefund`) with the refund id this returns.
            return refunded
        }
    }
}
