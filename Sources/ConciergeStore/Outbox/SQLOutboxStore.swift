public import ConciergeCore
import Foundation

/// The dev outbox's messages, in the database so every instance sees the same outbox.
public struct SQLOutboxStore: OutboxStore {
    private let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    /// A message whose `deliveryKey` is already kept is not kept again (unique index, see
    /// migration 8); messages without a key (sign-in codes) are always kept.
    public func append(_ message: DevOutboxMessage, deliveryKey: String?) async throws {
        try await database.query(
            """
            INSERT INTO outbox_messages
                (channel, recipient, subject, body, created_at, delivery_key, html_body, attachment_names, push_data)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (delivery_key) DO NOTHING
            """,
            [
                .text(message.channel.rawValue), .text(message.to), SQLValue(message.subject), .text(message.body),
                SQLValue(message.createdAt), SQLValue(deliveryKey), SQLValue(message.htmlBody),
                message.attachmentNames.isEmpty ? .null : .text(try OutboxJSON.encode(message.attachmentNames)),
                message.data.isEmpty ? .null : .text(try OutboxJSON.encode(message.data)),
            ])
    }

    public func messages(to recipient: String?) async throws -> [DevOutboxMessage] {
        let rows =
            if let recipient {
                try await database.query(
                    "SELECT * FROM outbox_messages WHERE recipient = ? ORDER BY seq", [.text(recipient)])
            } else {
                try await database.query("SELECT * FROM outbox_messages ORDER BY seq")
            }
        return try rows.map { row in
            let channel = try row.string("channel")
            guard let known = DevOutboxMessage.Channel(rawValue: channel) else {
                throw ConciergeError(
                    .unavailable(retryAfterSeconds: nil), code: "unknown_outbox_channel",
                    message: "The dev outbox holds a message on the unknown channel '\(channel)'.")
            }
            return DevOutboxMessage(
                channel: known, to: try row.string("recipient"), subject: try row.optionalString("subject"),
                body: try row.string("body"), createdAt: try row.date("created_at"),
                htmlBody: try row.optionalString("html_body"),
                attachmentNames: try row.optionalString("attachment_names").map { try OutboxJSON.decode($0) } ?? [],
                data: try row.optionalString("push_data").map { try OutboxJSON.decode($0) } ?? [:])
        }
    }
}
