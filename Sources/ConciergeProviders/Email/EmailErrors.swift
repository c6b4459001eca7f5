import ConciergeCore

/// The `ConciergeError`s both email adapters (SMTP and Postmark) throw, so a person sees the same
/// words whichever one the server is configured with.
///
/// The messages never repeat the provider's own text: it is written for developers and can
/// name our account, sender signature or token. Details go to the logs, without credentials.
enum EmailErrors {
    /// The address is wrong or cannot receive mail; sending again unchanged will fail again.
    static let invalidAddress = ConciergeError(
        .invalidInput, code: "invalid_email",
        message:
            "We could not send an email to this address. Check that it is spelled correctly (for example name@example.com) and try again."
    )

    /// The provider knows the address but will not deliver to it (earlier bounces or spam
    /// complaints); only a different address helps.
    static let inactiveAddress = ConciergeError(
        .invalidInput, code: "invalid_email",
        message:
            "We cannot send email to this address because earlier messages to it bounced or were marked as spam. Please use a different email address."
    )

    /// Retrying later can succeed; the notification outbox does that.
    static func unavailable(retryAfterSeconds: Int? = nil) -> ConciergeError {
        ConciergeError(
            .unavailable(retryAfterSeconds: retryAfterSeconds), code: "email_unavailable",
            message: "We could not send the email right now. We will try again shortly.")
    }

    /// Wrong credentials, an unverified sender, a server without the required TLS: an operator
    /// has to fix the configuration, retrying will not help.
    static let misconfigured = ConciergeError(
        .upstreamFailed, code: "email_failed",
        message: "Email delivery is misconfigured on our server, so we cannot send this email. Please try again later.")

    /// The mail server refused the message itself for a reason that will not change by itself.
    static let rejected = ConciergeError(
        .upstreamFailed, code: "email_failed",
        message: "The mail server refused to accept this email. Please try again later or contact support.")

    /// A cheap syntactic check before anything is sent: one `@` with something on both sides, no
    /// whitespace or control characters, and none of the characters that would let one address
    /// turn into several (`,` `;` for Postmark's list syntax) or break out of an SMTP command or
    /// header (`<` `>` CR LF). Whether the mailbox exists is the mail server's call.
    static func isPlausibleAddress(_ address: String) -> Bool {
        EmailAddress.isPlausible(address)
    }
}
