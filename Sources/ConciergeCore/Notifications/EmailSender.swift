/// Sends an email. Implementations: the dev outbox, SMTP and Postmark.
public protocol EmailSender: Sendable {
    /// Throws `ConciergeError` `.unavailable` when a retry later can succeed (the outbox worker
    /// retries), `.upstreamFailed` or `.invalidInput` when it cannot.
    func sendEmail(to address: String, subject: String, textBody: String) async throws
}
