public import ConciergeCore
public import Foundation

/// `OrderLimitStore` in SQL both engines understand: the account's recent orders from the
/// platform `orders` table with their payment deadline, and the rate events every throttle shares.
public struct SQLOrderLimitStore: OrderLimitStore {
    private let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    public func recentOrders(vertical: String, accountID: String, since: Date) async throws -> [RecentOrder] {
        // One range of `orders_by_account` (account_id, created_at); the payment deadline comes
        // from `payments_by_order`. An order with several payments is open until the last lapses.
        try await database.query(
            """
            SELECT o.state, o.created_at,
                (SELECT MAX(p.expires_at) FROM payments p WHERE p.order_id = o.id) AS payment_expires_at
            FROM orders o
            WHERE o.account_id = ? AND o.created_at >= ? AND o.vertical = ?
            """,
            [.text(accountID), SQLValue(since), .text(vertical)]
        ).map {
            RecentOrder(
                state: try $0.string("state"), createdAt: try $0.date("created_at"),
                paymentExpiresAt: try $0.optionalDate("payment_expires_at"))
        }
    }

    public func withRateEvents<T: Sendable>(
        locking keys: [String], _ body: @escaping @Sendable (any RateEventLog) async throws -> T
    ) async throws -> T {
        try await database.transaction(lockKeys: keys) { db in
            try await body(SQLIdentityTransaction(db: db))
        }
    }
}

extension SQLOrderLimitStore {
    /// Counts the account's open orders of the cap's vertical in the caller's transaction (which
    /// holds `cap.lockKey` and has just written one more) and throws the cap's 429 — rolling the
    /// order back — when they are more than the cap allows.
    public static func enforce(_ cap: OpenOrderCap, now: Date, in db: any SQLExecutor) async throws {
        let rows = try await db.query(
            """
            SELECT expires_at FROM orders
            WHERE account_id = ? AND vertical = ? AND status IN ('held', 'awaiting_payment')
                AND (expires_at IS NULL OR expires_at > ?)
            """, [.text(cap.accountID), .text(cap.vertical), SQLValue(now)])
        guard rows.count > cap.max else { return }
        let firstExpiry = try rows.compactMap { try $0.optionalDate("expires_at") }.min()
        throw cap.refusal(rows.count - 1, firstExpiry)
    }
}
