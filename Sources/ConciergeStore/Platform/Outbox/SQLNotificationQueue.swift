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
            claimed.append(try await Self.queued(from: row, in: database))
        }
        return claimed
    }

    /// One queue row with its attachments, as the worker sends it.
    static func queued(from row: SQLRow, in db: any SQLExecutor) async throws -> QueuedNotification {
        let seq = Int64(try row.int("seq"))
        let channelName = try row.string("channel")
        guard let channel = OutboxMessage.Channel(rawValue: channelName) else {
            throw ConciergeError(
                .unavailable(retryAfterSeconds: nil), code: "unknown_outbox_channel",
                message:
                    "Outbox message \(seq) is on the unknown channel '\(channelName)'; is this server older than the database?"
            )
        }
        let attachments = try await db.query(
            "SELECT * FROM outbox_attachments WHERE outbox_seq = ? ORDER BY position", [.integer(seq)]
        ).map { attachment in
            EmailAttachment(
                filename: try attachment.string("filename"), contentType: try attachment.string("content_type"),
                source: try attachmentSource(attachment, seq: seq))
        }
        return QueuedNotification(
            id: seq,
            notification: OutboxMessage(
                dedupeKey: try row.string("dedupe_key"), channel: channel, recipient: try row.string("recipient"),
                subject: try row.string("subject"), body: try row.string("body"),
                htmlBody: try row.optionalString("html_body"), attachments: attachments,
                data: try row.optionalString("push_data").map { try OutboxJSON.decode($0) } ?? [:]),
            attempts: try row.int("attempts"))
    }

    /// A row's recipe when it has one (written since outbox migration 2), its bytes otherwise.
    private static func attachmentSource(_ attachment: SQLRow, seq: Int64) throws -> EmailAttachment.Source {
        if let recipe = try attachment.optionalString("recipe") {
            guard let source = OutboxAttachmentRecipe.source(fromColumn: recipe) else {
                throw ConciergeError(
                    .unavailable(retryAfterSeconds: nil), code: "corrupt_outbox_attachment",
                    message: "An attachment of outbox message \(seq) has a recipe this server cannot draw.")
            }
            return source
        }
        guard let content = Data(base64Encoded: try attachment.string("content_base64")) else {
            throw ConciergeError(
                .unavailable(retryAfterSeconds: nil), code: "corrupt_outbox_attachment",
                message: "An attachment of outbox message \(seq) is not valid base64.")
        }
        return .bytes(content)
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
