import Foundation

/// The platform's own tables about a person: the account and its sign-in methods, orders, holds,
/// stored idempotent answers and the messages of the outbox. (Credentials, sessions and tokens
/// are erased and moved by `SQLAccountTransaction` itself.)
struct PlatformAccountData: AccountDataOwner {
    let module = "platform"

    func addresses(accountID: String, in db: any SQLExecutor) async throws -> [String] {
        try await db.query(
            "SELECT identifier FROM account_credentials WHERE account_id = ? AND kind IN ('email', 'phone')",
            [.text(accountID)]
        ).map { try $0.string("identifier") }
    }

    func erase(accountID: String, at date: Date, in db: any SQLExecutor) async throws {
        // Orders stay for accounting with no owner (the orders schema's rule for erased
        // accounts); stored idempotent answers go, as no session can replay them any more.
        try await db.query("UPDATE orders SET account_id = NULL WHERE account_id = ?", [.text(accountID)])
        try await db.query("DELETE FROM idempotency_keys_v2 WHERE account_id = ?", [.text(accountID)])
    }

    func move(from: String, into: String, at date: Date, in db: any SQLExecutor) async throws {
        try await db.query("UPDATE orders SET account_id = ? WHERE account_id = ?", [.text(into), .text(from)])
        try await db.query("UPDATE holds SET owner_id = ? WHERE owner_id = ?", [.text(into), .text(from)])
        try await db.query(
            "UPDATE order_events SET actor = ? WHERE actor = ?", [.text("account:\(into)"), .text("account:\(from)")])
        // A key names one request of one account; the joined account's own keys may clash.
        try await db.query("DELETE FROM idempotency_keys_v2 WHERE account_id = ?", [.text(from)])
    }

    func export(accountID: String, in db: any SQLExecutor) async throws -> [String: [PersonalDataRow]] {
        let account = [SQLValue.text(accountID)]
        let orders = "order_id IN (SELECT id FROM orders WHERE account_id = ?)"
        return [
            "accounts": try await PersonalDataRows.select("accounts", where: "id = ?", account, in: db),
            "account_credentials": try await PersonalDataRows.select(
                "account_credentials", where: "account_id = ?", account, in: db),
            "sessions": try await PersonalDataRows.select("sessions", where: "account_id = ?", account, in: db),
            "orders": try await PersonalDataRows.select("orders", where: "account_id = ?", account, in: db),
            "order_lines": try await PersonalDataRows.select("order_lines", where: orders, account, in: db),
            "order_events": try await PersonalDataRows.select("order_events", where: orders, account, in: db),
            "payments": try await PersonalDataRows.select("payments", where: orders, account, in: db),
            "holds": try await PersonalDataRows.select("holds", where: "owner_id = ?", account, in: db),
        ]
    }

    func sweep(_ retention: RetentionPeriods, now: Date, in db: any SQLExecutor) async throws {
        let sent = SQLValue(now.addingTimeInterval(-retention.sentNotifications))
        let finished = "status <> 'pending' AND COALESCE(sent_at, created_at) < ?"
        try await db.query(
            "DELETE FROM outbox_attachments WHERE outbox_seq IN (SELECT seq FROM notification_outbox WHERE \(finished))",
            [sent])
        try await db.query("DELETE FROM notification_outbox WHERE \(finished)", [sent])
        try await db.query(
            "DELETE FROM outbox_messages WHERE created_at < ?", [SQLValue(now.addingTimeInterval(-retention.devOutbox))]
        )
        // The order and its amounts stay; who acted becomes only what kind of actor it was.
        try await db.query(
            """
            UPDATE order_events SET actor = 'account'
            WHERE actor LIKE 'account:%' AND at < ?
            """, [SQLValue(now.addingTimeInterval(-retention.orderEvents))])
    }
}
