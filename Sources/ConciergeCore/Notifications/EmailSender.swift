/// Sends an email. Implementations: the dev outbox, SMTP and Postmark.
public protocol EmailSender: NotificationSender {
    /// Throws `ConciergeError` `.unavailable` when a retry later can succeed (the outbox worker
    /// retries), `.upstreamFailed` or `.invalidInput` when it cannot.
    func sendEmail(to address: String, subject: String, textBody: String) async throws

    /// The same, for one notification of the outbox: `deliveryKey` is the same on every attempt
    /// to deliver that notification (its dedupe key), so a sender that can drop repeats by it
    /// turns the outbox's at-least-once delivery — a crash after the send but before it is
    /// marked sent sends again — into exactly-once. The dev outbox stores the key under a
    /// unique index; SMTP makes it the Message-ID, by which receivers drop duplicates.
    func sendEmail(to address: String, subject: String, textBody: String, deliveryKey: String?) async throws

    /// The same with an HTML part and attachments: SMTP sends MIME multipart/alternative (inside
    /// multipart/mixed with attachments), Postmark `HtmlBody` and `Attachments`, and the dev
    /// outbox keeps the HTML and the attachments' names.
    func sendEmail(_ email: EmailContent, deliveryKey: String?) async throws
}

extension EmailSender {
    /// Senders that cannot use the key deliver at least once.
    public func sendEmail(to address: String, subject: String, textBody: String, deliveryKey: String?) async throws {
        try await sendEmail(to: address, subject: subject, textBody: textBody)
    }

    /// Senders that know only text (test doubles) get the text part; every provider the server
    /// configures implements the full message.
    public func sendEmail(_ email: EmailContent, deliveryKey: String?) async throws {
        try await sendEmail(to: email.to, subject: email.subject, textBody: email.textBody, deliveryKey: deliveryKey)
    }
}
