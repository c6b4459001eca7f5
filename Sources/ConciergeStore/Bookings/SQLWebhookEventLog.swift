public import ConciergeCore
public import Foundation

public struct SQLWebhookEventLog: WebhookEventLog {
    private let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    public func recordOnce(provider: String, eventID: String, at date: Date) async throws -> Bool {
        !(try await database.query(
            """
            INSERT INTO webhook_events (provider, event_id, received_at) VALUES (?, ?, ?)
            ON CONFLICT (provider, event_id) DO NOTHING RETURNING event_id
            """, [.text(provider), .text(eventID), SQLValue(date)]
        ).isEmpty)
    }

    public func forget(provider: String, eventID: String) async throws {
        try await database.query(
            "DELETE FROM webhook_events WHERE provider = ? AND event_id = ?", [.text(provider), .text(eventID)])
    }
}
