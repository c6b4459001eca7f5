public import ConciergeCore
public import Logging

/// The embedded message provider: keeps each message in the database (readable at
/// `GET /dev/outbox`) and logs it, instead of delivering it — SMS, email (with its HTML part and
/// its attachments' names) and push. Dev mode only. Notifications are kept exactly once: their
/// delivery key is unique in the same database.
public struct DevOutbox: SMSSender, EmailSender, PushSender {
    private let store: any OutboxStore
    private let clock: any TimeSource
    private let logger: Logger

    /// The delivery key is unique in the outbox's table: a repeat is never kept twice.
    public var dropsRepeatedDeliveries: Bool { true }

    public init(store: any OutboxStore, clock: any TimeSource, logger: Logger) {
        self.store = store
        self.clock = clock
        self.logger = logger
    }

    public func sendSMS(to phone: PhoneNumber, body: String) async throws {
        try await sendSMS(to: phone, body: body, deliveryKey: nil)
    }

    /// With a `deliveryKey`, a notification redelivered after a crash is kept once.
    public func sendSMS(to phone: PhoneNumber, body: String, deliveryKey: String?) async throws {
        try await store.append(
            DevOutboxMessage(channel: .sms, to: phone.e164, subject: nil, body: body, createdAt: clock.now),
            deliveryKey: deliveryKey)
        // Not the body: it holds sign-in codes, and logs travel further than /dev/outbox.
        logger.info("dev outbox: SMS to \(phone.e164) (\(body.count) characters; read it at /dev/outbox)")
    }

    public func sendEmail(to address: String, subject: String, textBody: String) async throws {
        try await sendEmail(EmailContent(to: address, subject: subject, textBody: textBody), deliveryKey: nil)
    }

    /// With a `deliveryKey`, a notification redelivered after a crash is kept once.
    public func sendEmail(to address: String, subject: String, textBody: String, deliveryKey: String?) async throws {
        try await sendEmail(EmailContent(to: address, subject: subject, textBody: textBody), deliveryKey: deliveryKey)
    }

    public func sendEmail(_ email: EmailContent, deliveryKey: String?) async throws {
        try await store.append(
            DevOutboxMessage(
                channel: .email, to: email.to, subject: email.subject, body: email.textBody, createdAt: clock.now,
                htmlBody: email.htmlBody, attachmentNames: email.attachments.map(\.filename)),
            deliveryKey: deliveryKey)
        logger.info("dev outbox: email to \(email.to): \(email.subject)")
    }

    public func sendPush(
        to deviceToken: String, title: String, body: String, data: [String: String], deliveryKey: String?
    ) async throws {
        try await store.append(
            DevOutboxMessage(
                channel: .push, to: deviceToken, subject: title, body: body, createdAt: clock.now, data: data),
            deliveryKey: deliveryKey)
        // A device token addresses the device: its first characters are enough to tell them apart.
        logger.info("dev outbox: push to \(deviceToken.prefix(8))…: \(title)")
    }
}
