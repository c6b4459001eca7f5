public import ConciergeCore
public import Foundation

/// Queues messages in the notification outbox from inside any vertical's transaction: the
/// message commits with the state change that causes it, or not at all, and the worker
/// (`NotificationDeliverer` over `SQLNotificationQueue`) sends it afterwards.
public struct OutboxWriter: Sendable {
    private let clock: any TimeSource

    public init(clock: any TimeSource) {
        self.clock = clock
    }

    /// Queues `message` in `db` (a transaction's executor, or the database itself) to be sent
    /// now. Returns false when a message with its dedupe key is already queued: the key is
    /// unique, so a replayed transition queues nothing twice.
    @discardableResult
    public func enqueue(_ message: OutboxMessage, in db: any SQLExecutor) async throws -> Bool {
        try await Self.enqueue(message, in: db, at: clock.now)
    }

    /// The same, at a time the caller already holds (the state change's own timestamp).
    @discardableResult
    public static func enqueue(_ message: OutboxMessage, in db: any SQLExecutor, at date: Date) async throws -> Bool {
        let inserted = try await db.query(
            """
            INSERT INTO notification_outbox
                (dedupe_key, channel, recipient, subject, body, html_body, push_data, status, attempts,
                 next_attempt_at, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?)
            ON CONFLICT (dedupe_key) DO NOTHING
            RETURNING seq
            """,
            [
                .text(message.dedupeKey), .text(message.channel.rawValue), .text(message.recipient),
                .text(message.subject), .text(message.body), SQLValue(message.htmlBody),
                message.data.isEmpty ? .null : .text(try OutboxJSON.encode(message.data)), SQLValue(date),
                SQLValue(date),
            ])
        guard let row = inserted.first else { return false }
        let seq = Int64(try row.int("seq"))
        for (position, attachment) in message.attachments.enumerated() {
            // A recipe is stored as such, undrawn: the provider draws it when it sends.
            let bytes: String =
                switch attachment.source {
                case .bytes(let data): data.base64EncodedString()
                case .qrCodePNG: ""
                }
            try await db.query(
                """
                INSERT INTO outbox_attachments (outbox_seq, position, filename, content_type, content_base64, recipe)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
                [
                    .integer(seq), SQLValue(position), .text(attachment.filename), .text(attachment.contentType),
                    .text(bytes), SQLValue(try OutboxAttachmentRecipe.column(for: attachment.source)),
                ])
        }
        return true
    }
}
