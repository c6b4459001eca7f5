public import Foundation

/// Notifications still waiting to be delivered, per channel, and when the oldest was queued:
/// what `/ready` shows of the outbox. One GROUP BY over the pending rows.
public struct SQLOutboxBacklog: Sendable {
    public struct Channel: Sendable, Equatable {
        public let channel: String
        public let pending: Int
        public let oldestQueuedAt: Date
    }

    private let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    /// By channel name; a channel with nothing pending is absent.
    public func pendingByChannel() async throws -> [Channel] {
        try await database.query(
            """
            SELECT channel, COUNT(*) AS n, MIN(created_at) AS oldest FROM notification_outbox
            WHERE status = 'pending' GROUP BY channel ORDER BY channel
            """
        ).map {
            Channel(channel: try $0.string("channel"), pending: try $0.int("n"), oldestQueuedAt: try $0.date("oldest"))
        }
    }
}
