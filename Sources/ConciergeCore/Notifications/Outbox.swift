public import Foundation

/// A message the dev outbox kept instead of delivering.
public struct OutboxMessage: Sendable, Equatable {
    public enum Channel: String, Sendable {
        case sms
        case email
    }

    public let channel: Channel
    public let to: String
    public let subject: String?
    public let body: String
    public let createdAt: Date

    public init(channel: Channel, to: String, subject: String?, body: String, createdAt: Date) {
        self.channel = channel
        self.to = to
        self.subject = subject
        self.body = body
        self.createdAt = createdAt
    }
}

/// Where the dev outbox keeps messages: in the database, so every server instance sees them.
public protocol OutboxStore: Sendable {
    /// Keeps `message`. With a `deliveryKey`, a message with that key already kept makes this a
    /// no-op (a unique index in the same database), so redelivering one notification after a
    /// crash keeps it once.
    func append(_ message: OutboxMessage, deliveryKey: String?) async throws
    /// The kept messages to `recipient` (every message when nil), oldest first.
    func messages(to recipient: String?) async throws -> [OutboxMessage]
}

extension OutboxStore {
    /// Keeps a message that is not one of the outbox's notifications (a sign-in code).
    public func append(_ message: OutboxMessage) async throws {
        try await append(message, deliveryKey: nil)
    }

    /// Every kept message, oldest first.
    public func messages() async throws -> [OutboxMessage] { try await messages(to: nil) }
}
