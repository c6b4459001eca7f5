public import ConciergeCore
public import Foundation

/// The notification outbox's queue side, for the worker that drains it: claim what is due under
/// a lease, then mark it sent or failed. Every vertical writes into the same `notification_outbox`
/// (see `OutboxWriter`), so one queue serves them all.
public struct SQLNotificationQueue: NotificationOutbox {
    private let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    public func claimDue(now: Date, leaseUntil: Date, limit: Int) async throws -> [QueuedNotification] {
        let candidates = try await database.query(
            "SELECT seq FROM notification_outbox WHERE status = 'pending' AND next_attempt_at <= ? ORDER BY seq LIMIT ?",
            [SQLValue(now), SQLValue(limit)])
        var claimed: [QueuedNotification] = []
        for candidate in candidates {
            // The conditional update is the claim: of two workers, one gets the row back.
            let rows = try await database.query(
                """
                UPDATE notification_outbox SET next_attempt_at = ?
                WHERE seq = ? AND status = 'pending' AND next_attempt_at <= ?
                RETURNING *
                """, [SQLValue(leaseUntil), .integer(Int64(try candidate.int("seq"))), SQLValue(now)])
            guard let row = rows.first else { continue }
            claimed.append(
                QueuedNotification(
                    id: Int64(try row.int("seq")),
                    notification: PendingNotification(
                        dedupeKey: try row.string("dedupe_key"),
                        channel: PendingNotification.Channel(rawValue: try row.string("channel")) ?? .email,
                        recipient: try row.string("recipient"), subject: try row.string("subject"),
                        body: try row.string("body")),
                    attempts: try row.int("attempts")))
        }
        return claimed
    }

    public func markSent(id: Int64, at date: Date) async throws {
        try await database.query(
            "UPDATE notification_outbox SET status = 'sent', sent_at = ? WHERE seq = ?", [SQLValue(date), .integer(id)])
    }

    public func markFailed(id: Int64, attempts: Int, retryAt: Date?, error: String) async throws {
        try await database.query(
            "UPDATE notification_outbox SET status = ?, attempts = ?, next_attempt_at = COALESCE(?, next_attempt_at), last_error = ? WHERE seq = ?",
            [
                .text(retryAt == nil ? "failed" : "pending"), SQLValue(attempts), SQLValue(retryAt),
                .text(String(error.prefix(500))), .integer(id),
            ])
    }
}
