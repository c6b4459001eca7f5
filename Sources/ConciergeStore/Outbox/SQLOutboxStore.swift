public import ConciergeCore

/// The dev outbox's messages, in the database so every instance sees the same outbox.
public struct SQLOutboxStore: OutboxStore {
    private let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    /// A message whose `deliveryKey` is already kept is not kept again (unique index, see
    /// migration 8); messages without a key (sign-in codes) are always kept.
    public func append(_ message: OutboxMessage, deliveryKey: String?) async throws {
        try await database.query(
            """
            INSERT INTO outbox_messages (channel, recipient, subject, body, created_at, delivery_key)
            VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (delivery_key) DO NOTHING
            """,
            [
                .text(message.channel.rawValue), .text(message.to), SQLValue(message.subject), .text(message.body),
                SQLValue(message.createdAt), SQLValue(deliveryKey),
            ])
    }

    public func messages(to recipient: String?) async throws -> [OutboxMessage] {
        let rows =
            if let recipient {
                try await database.query(
                    "SELECT * FROM outbox_messages WHERE recipient = ? ORDER BY seq", [.text(recipient)])
            } else {
                try await database.query("SELECT * FROM outbox_messages ORDER BY seq")
            }
        return try rows.map { row in
            OutboxMessage(
                channel: OutboxMessage.Channel(rawValue: try row.string("channel")) ?? .sms,
                to: try row.string("recipient"), subject: try row.optionalString("subject"),
                body: try row.string("body"), createdAt: try row.date("created_at"))
        }
    }
}
