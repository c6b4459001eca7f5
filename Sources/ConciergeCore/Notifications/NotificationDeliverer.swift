import Foundation

/// Drains the notification outbox: sends what is due, marks it sent, and retries failures with
/// growing pauses. Because notifications are written in the same transaction as the state
/// change, a crash between commit and send only delays the message; the dedupe key in the outbox
/// keeps a replayed transition from queueing it twice.
public struct NotificationDeliverer: Sendable {
    public static let maxAttempts = 10

    private let outbox: any NotificationOutbox
    private let email: any EmailSender
    private let sms: any SMSSender
    private let clock: any TimeSource

    public init(outbox: any NotificationOutbox, email: any EmailSender, sms: any SMSSender, clock: any TimeSource) {
        self.outbox = outbox
        self.email = email
        self.sms = sms
        self.clock = clock
    }

    /// Sends everything due now; returns how many were sent.
    @discardableResult
    public func deliverDue(limit: Int = 50) async throws -> Int {
        var sent = 0
        let now = clock.now
        for queued in try await outbox.claimDue(now: now, leaseUntil: now.addingTimeInterval(300), limit: limit) {
            let message = queued.notification
            do {
                switch message.channel {
                case .email:
                    try await email.sendEmail(to: message.recipient, subject: message.subject, textBody: message.body)
                case .sms:
                    try await sms.sendSMS(to: PhoneNumber(trustedE164: message.recipient), body: message.body)
                }
                try await outbox.markSent(id: queued.id, at: clock.now)
                sent += 1
            } catch {
                let attempts = queued.attempts + 1
                let permanent = (error as? ConciergeError).map { $0.category == .invalidInput } ?? false
                let retryAt: Date? =
                    permanent || attempts >= Self.maxAttempts
                    ? nil : clock.now.addingTimeInterval(min(3600, 10 * pow(2, Double(attempts - 1))))
                try await outbox.markFailed(id: queued.id, attempts: attempts, retryAt: retryAt, error: "\(error)")
            }
        }
        return sent
    }
}
