public import Foundation

/// A message the dev outbox kept instead of delivering.
public struct DevOutboxMessage: Sendable, Equatable {
    public enum Channel: String, Sendable {
        case sms
        case email
        case push
    }

    public let channel: Channel
    /// A phone number, an email address or a push device token.
    public let to: String
    /// The email's subject or the push notification's title.
    public let subject: String?
    public let body: String
    public let createdAt: Date
    /// The email's HTML part, when it had one.
    public let htmlBody: String?
    /// The names of the email's attachments (their bytes are not kept).
    public let attachmentNames: [String]
    /// The push notification's data.
    public let data: [String: String]

    public init(
        channel: Channel, to: String, subject: String?, body: String, createdAt: Date, htmlBody: String? = nil,
        attachmentNames: [String] = [], data: [String: String] = [:]
    ) {
        self.channel = channel
        self.to = to
        self.subject = subject
        self.body = body
        self.createdAt = createdAt
        self.htmlBody = htmlBody
        self.attachmentNames = attachmentNames
        self.data = data
    }
}

/// Where the dev outbox keeps messages: in the database, so every server instance sees them.
public protocol OutboxStore: Sendable {
    /// Keeps `message`. With a `deliveryKey`, a message with that key already kept makes this a
    /// no-op (a unique index in the same database), so redelivering one notification after a
    /// crash keeps it once.
    func append(_ message: DevOutboxMessage, deliveryKey: String?) async throws
    /// The kept messages to `recipient` (every message when nil), oldest first.
    func messages(to recipient: String?) async throws -> [DevOutboxMessage]
}

extension OutboxStore {
    /// Keeps a message that is not one of the outbox's notifications (a sign-in code).
    public func append(_ message: DevOutboxMessage) async throws {
        try await append(message, deliveryKey: nil)
    }

    /// Every kept message, oldest first.
    public func messages() async throws -> [DevOutboxMessage] { try await messages(to: nil) }
}
