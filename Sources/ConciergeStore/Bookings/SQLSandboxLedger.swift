public import ConciergeCore
import Foundation

/// The sandbox provider's payments: the platform `payments` rows whose provider is "sandbox".
public struct SQLSandboxLedger: SandboxLedger {
    private let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    public func payment(id: String) async throws -> PaymentRecord? {
        try await database.query(
            "SELECT * FROM payments WHERE provider = 'sandbox' AND provider_payment_id = ?", [.text(id)]
        ).first.map(SQLPaymentLedger.payment(from:))
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

    public func refundInFull(id: String) async throws {
        try await database.query(
            """
            UPDATE payments SET refunded_cents = amount_cents
            WHERE provider = 'sandbox' AND provider_payment_id = ? AND status = 'paid'
            """, [.text(id)])
    }
}
