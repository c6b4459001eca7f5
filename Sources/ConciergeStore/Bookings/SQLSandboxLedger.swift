public import ConciergeCore
import Foundation

public struct SQLSandboxLedger: SandboxLedger {
    private let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    public func insert(_ payment: SandboxPayment) async throws {
        let metadata = String(decoding: try JSONEncoder().encode(payment.metadata), as: UTF8.self)
        try await database.query(
            """
            INSERT INTO sandbox_payments
                (id, amount_cents, currency, description, redirect_url, status, refunded_cents, metadata, created_at, expires_at)
            VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?)
            """,
            [
                .text(payment.id), SQLValue(payment.amountCents), .text(payment.currency), .text(payment.description),
                .text(payment.redirectURL), .text(payment.status.rawValue), .text(metadata),
                SQLValue(payment.createdAt),
                SQLValue(payment.expiresAt),
            ])
    }

    public func payment(id: String) async throws -> SandboxPayment? {
        try await database.query("SELECT * FROM sandbox_payments WHERE id = ?", [.text(id)]).first.map { row in
            SandboxPayment(
                id: try row.string("id"), amountCents: try row.int("amount_cents"),
                currency: try row.string("currency"),
                description: try row.string("description"), redirectURL: try row.string("redirect_url"),
                status: PaymentStatus(rawValue: try row.string("status")) ?? .open,
                refundedCents: try row.int("refunded_cents"),
                metadata: (try? JSONDecoder().decode([String: String].self, from: Data(try row.string("metadata").utf8)))
                    ?? [:],
                createdAt: try row.date("created_at"), expiresAt: try row.date("expires_at"))
        }
    }

    public func complete(id: String, status: PaymentStatus) async throws -> Bool {
        !(try await database.query(
            "UPDATE sandbox_payments SET status = ? WHERE id = ? AND status = 'open' RETURNING id",
            [.text(status.rawValue), .text(id)]
        ).isEmpty)
    }

    public func cancel(id: String) async throws {
        try await database.query(
            "UPDATE sandbox_payments SET status = 'canceled' WHERE id = ? AND status IN ('open', 'pending')",
            [.text(id)])
    }

    public func refundInFull(id: String) async throws {
        try await database.query(
            "UPDATE sandbox_payments SET refunded_cents = amount_cents WHERE id = ? AND status = 'paid'", [.text(id)])
    }
}
