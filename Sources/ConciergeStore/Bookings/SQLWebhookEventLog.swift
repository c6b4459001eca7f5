public import ConciergeCore
public import Foundation

public struct SQLWebhookEventLog: WebhookEventLog {
    private let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    public func claim(provider: String, eventID: String, at date: Date, staleBefore: Date) async throws -> Bool {
        // One statement: of concurrent deliveries exactly one gets a row back.
        try await !database.query(
            """
            INSERT INTO webhook_events (provider, event_id, received_at) VALUES (?, ?, ?)
            ON CONFLICT (provider, event_id) DO UPDATE SET received_at = excluded.received_at
            WHERE webhook_events.applied_at IS NULL AND webhook_events.received_at < ?
            RETURNING event_id
            """, [.text(provider), .text(eventID), SQLValue(date), SQLValue(staleBefore)]
        ).isEmpty
    }

    public func markApplied(provider: String, eventID: String, at date: Date) async throws {
        try await database.query(
            "UPDATE webhook_events SET applied_at = ? WHERE provider = ? AND event_id = ?",
            [SQLValue(date), .text(provider), .text(eventID)])
    }

    public func release(provider: String, eventID: String) async throws {
        try await database.query(
            "DELETE FROM webhook_events WHERE provider = ? AND event_id = ? AND applied_at IS NULL",
            [.text(provider), .text(eventID)])
    }

    public func sweep(receivedBefore date: Date) async throws {
        try await database.query("DELETE FROM webhook_events WHERE received_at < ?", [SQLValue(date)])
    }
}
