public import ConciergeCore
public import Logging

/// The embedded message provider: keeps each message in the database (readable at
/// `GET /dev/outbox`) and logs it, instead of delivering it. Dev mode only.
public struct DevOutbox: SMSSender, EmailSender {
    private let store: any OutboxStore
    private let clock: any TimeSource
    private let logger: Logger

    public init(store: any OutboxStore, clock: any TimeSource, logger: Logger) {
        self.store = store
        self.clock = clock
        self.logger = logger
    }

    public func sendSMS(to phone: PhoneNumber, body: String) async throws {
        try await store.append(
            OutboxMessage(channel: .sms, to: phone.e164, subject: nil, body: body, createdAt: clock.now))
        logger.info("dev outbox: SMS to \(phone.e164): \(body)")
    }

    public func sendEmail(to address: String, subject: String, textBody: String) async throws {
        try await store.append(
            OutboxMessage(channel: .email, to: address, subject: subject, body: textBody, createdAt: clock.now))
        logger.info("dev outbox: email to \(address): \(subject)")
    }
}
