public import Foundation

/// Drains the notification outbox: sends what is due, marks it sent, and retries failures with
/// growing pauses. Because notifications are written in the same transaction as the state
/// change, a crash between commit and send only delays the message; the dedupe key in the outbox
/// keeps a replayed transition from queueing it twice.
///
/// Each notification is claimed on its own, just before it is sent, with a lease that covers one
/// send: two workers never send it at the same time, and a worker killed mid-send strands only
/// that one message, until its lease runs out. (Claiming a batch of 50 under one 5-minute lease
/// stranded the whole batch for 5 minutes after a kill -9 — the crash drill's missing
/// confirmations — and let a slow provider outlast the lease for the end of a batch.)
///
/// A crash after the send but before `markSent` sends the message again once the lease runs
/// out. Each send therefore carries the notification's dedupe key as its delivery key: the dev
/// outbox (in the same database) keeps a key once, so it receives every notification exactly
/// once; SMTP uses the key as the Message-ID so receivers can drop the repeat; Postmark and
/// Twilio ignore it and stay at-least-once.
public struct NotificationDeliverer: Sendable {
    public static let maxAttempts = 10
    /// How long a claimed notification is reserved for the worker sending it: one send, which
    /// every sender gives up on after 10 s, with room to spare.
    public static let sendLease: TimeInterval = 60
    /// The lease when both senders drop a repeated delivery key themselves (the dev outbox): a
    /// second send there is harmless, so a killed worker's claim is taken over within seconds.
    public static let repeatSafeLease: TimeInterval = 5

    private let outbox: any NotificationOutbox
    private let email: any EmailSender
    private let sms: any SMSSender
    /// Nil when no push sender is configured: push messages then fail for good, with a reason.
    private let push: (any PushSender)?
    private let clock: any TimeSource

    public init(
        outbox: any NotificationOutbox, email: any EmailSender, sms: any SMSSender, push: (any PushSender)? = nil,
        clock: any TimeSource
    ) {
        self.outbox = outbox
        self.email = email
        self.sms = sms
        self.push = push
        self.clock = clock
    }

    /// The lease each claim takes.
    public var lease: TimeInterval {
        email.dropsRepeatedDeliveries && sms.dropsRepeatedDeliveries && (push?.dropsRepeatedDeliveries ?? true)
            ? Self.repeatSafeLease : Self.sendLease
    }

    /// Sends what is due now, one claim at a time, at most `limit` of them; returns how many
    /// were sent.
    @discardableResult
    public func deliverDue(limit: Int = 500) async throws -> Int {
        var sent = 0
        for _ in 0..<max(0, limit) {
            let now = clock.now
            guard
                let queued = try await outbox.claimDue(now: now, leaseUntil: now.addingTimeInterval(lease), limit: 1)
                    .first
            else { break }
            do {
                try await send(queued.notification)
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

    private func send(_ message: OutboxMessage) async throws {
        switch message.channel {
        case .email:
            let content = EmailContent(
                to: message.recipient, subject: message.subject, textBody: message.body, htmlBody: message.htmlBody,
                attachments: message.attachments)
            if content.isPlainText {
                try await email.sendEmail(
                    to: message.recipient, subject: message.subject, textBody: message.body,
                    deliveryKey: message.dedupeKey)
            } else {
                try await email.sendEmail(content, deliveryKey: message.dedupeKey)
            }
        case .sms:
            try await sms.sendSMS(
                to: PhoneNumber(trustedE164: message.recipient), body: message.body, deliveryKey: message.dedupeKey)
        case .push:
            guard let push else {
                throw ConciergeError(
                    .invalidInput, code: "push_not_configured",
                    message: "A push notification was queued but this server has no push sender configured.")
            }
            try await push.sendPush(
                to: message.recipient, title: message.subject, body: message.body, data: message.data,
                deliveryKey: message.dedupeKey)
        }
    }
}
