public import ConciergeCore
import Foundation
public import Logging

/// Sends transactional email through Postmark's HTTP API: `POST {base}/email` with a JSON body
/// `{"From", "To", "Subject", "TextBody", "MessageStream": "outbound"}` (plus `HtmlBody` and
/// `Attachments: [{"Name", "Content" (base64), "ContentType"}]` when the email has them) and the
/// server token in `X-Postmark-Server-Token`.
///
/// A send is never retried here: Postmark documents no idempotency key, so a retry after a
/// time-out could deliver the same email twice. The notification outbox retries `.unavailable`.
/// For the same reason it keeps the protocol's default for the outbox's delivery key (ignored):
/// a crash after Postmark accepted an email but before the outbox marked it sent sends it again
/// once — at-least-once, unlike the dev outbox (exactly once) and SMTP (a stable Message-ID).
///
/// Error mapping (Postmark answers `{"ErrorCode": n, "Message": "…"}`):
/// - 401, or `ErrorCode` 10 (bad or missing token), 400/401 (sender signature missing or not
///   confirmed) and any other unexpected answer: `.upstreamFailed` `email_failed`.
/// - 422 with `ErrorCode` 300 (invalid email request) or 406 (inactive recipient):
///   `.invalidInput` `invalid_email`.
/// - 429 (or `ErrorCode` 429), 5xx, time-out, unreachable: `.unavailable` `email_unavailable`.
public struct PostmarkEmailSender: EmailSender {
    public static let defaultBaseURL = "https://api.postmarkapp.com"

    /// Postmark error codes meaning "this recipient cannot get the email".
    static let invalidRecipientCodes: Set<Int> = [300]
    static let inactiveRecipientCode = 406
    static let badTokenCode = 10
    static let rateLimitCode = 429

    private let serverToken: String
    private let from: String
    private let transport: any ProviderHTTPTransport
    private let baseURL: String
    private let timeout: Duration
    private let logger: Logger

    /// - Parameters:
    ///   - serverToken: the Postmark server API token (`POSTMARK_API_TEST` validates without
    ///     delivering). Never logged and never part of an error.
    ///   - from: a confirmed sender signature, `bookings@example.com` or `"Name <a@x>"`.
    ///   - baseURL: injectable for tests against a local stub server.
    ///   - timeout: the whole exchange.
    public init(
        serverToken: String,
        from: String,
        transport: any ProviderHTTPTransport = AsyncHTTPClientTransport(),
        baseURL: String = PostmarkEmailSender.defaultBaseURL,
        timeout: Duration = .seconds(10),
        logger: Logger = Logger(label: "concierge.providers.postmark")
    ) {
        self.serverToken = serverToken
        self.from = from
        self.transport = transport
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.timeout = timeout
        self.logger = logger
    }

    public func sendEmail(to address: String, subject: String, textBody: String) async throws {
        try await sendEmail(EmailContent(to: address, subject: subject, textBody: textBody), deliveryKey: nil)
    }

    /// Sends `HtmlBody` next to `TextBody` and each attachment as `{Name, Content (base64),
    /// ContentType}`. Postmark has no idempotency key: the delivery key is not used.
    public func sendEmail(_ email: EmailContent, deliveryKey: String?) async throws {
        // Postmark's `To` is a comma-separated list: an address with a comma would reach several
        // people, so anything but one plain address stops here.
        guard EmailErrors.isPlausibleAddress(email.to) else { throw EmailErrors.invalidAddress }
        let request = ProviderHTTPRequest(
            method: "POST", url: baseURL + "/email",
            headers: [
                ("Accept", "application/json"), ("Content-Type", "application/json"),
                ("X-Postmark-Server-Token", serverToken),
            ],
            body: try Self.body(from: from, email: email))
        let response: ProviderHTTPResponse
        do {
            response = try await transport.send(request, timeout: timeout)
        } catch let error as ProviderTransportError {
            logger.warning("Postmark send unreachable", metadata: ["transport_error": "\(error)"])
            throw EmailErrors.unavailable()
        }
        let answer = PostmarkAnswer.decode(response.body)
        if (200...299).contains(response.status), answer?.errorCode ?? 0 == 0 { return }
        let error = Self.error(
            status: response.status, errorCode: answer?.errorCode, retryAfter: response.header("Retry-After"))
        let level: Logger.Level =
            switch error.category {
            case .invalidInput: .info
            case .upstreamFailed: .error
            default: .warning
            }
        logger.log(
            level: level, "Postmark send failed",
            metadata: [
                "http_status": "\(response.status)", "postmark_code": "\(answer?.errorCode.map(String.init) ?? "none")",
                "mapped_to": "\(error.code)",
            ])
        throw error
    }

    /// The one place that turns a Postmark failure answer into a `ConciergeError`.
    static func error(status: Int, errorCode: Int?, retryAfter: String? = nil) -> ConciergeError {
        if status == 401 || errorCode == badTokenCode { return EmailErrors.misconfigured }
        if status == 429 || errorCode == rateLimitCode {
            return EmailErrors.unavailable(retryAfterSeconds: TwilioErrorMapping.retryAfterSeconds(retryAfter))
        }
        if (500...599).contains(status) { return EmailErrors.unavailable() }
        if let errorCode, status == 422 || (200...299).contains(status) {
            if invalidRecipientCodes.contains(errorCode) { return EmailErrors.invalidAddress }
            if errorCode == inactiveRecipientCode { return EmailErrors.inactiveAddress }
        }
        // 400/401 sender signature problems, 404, 422 with another code, undecodable answers.
        return EmailErrors.misconfigured
    }

    static func body(from: String, to: String, subject: String, textBody: String) throws -> Data {
        try body(from: from, email: EmailContent(to: to, subject: subject, textBody: textBody))
    }

    static func body(from: String, email: EmailContent) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(
            PostmarkMessage(
                from: from, to: email.to, subject: email.subject, textBody: email.textBody, htmlBody: email.htmlBody,
                attachments: email.attachments.isEmpty
                    ? nil
                    : try email.attachments.map {
                        PostmarkAttachment(
                            name: $0.filename, content: try $0.content.base64EncodedString(),
                            contentType: $0.contentType)
                    },
                messageStream: "outbound"))
    }
}

/// The request body, in Postmark's PascalCase. `HtmlBody` and `Attachments` are left out when
/// there are none, so a text-only email is the same request as before.
private struct PostmarkMessage: Encodable {
    let from: String
    let to: String
    let subject: String
    let textBody: String
    let htmlBody: String?
    let attachments: [PostmarkAttachment]?
    let messageStream: String

    enum CodingKeys: String, CodingKey {
        case from = "From"
        case to = "To"
        case subject = "Subject"
        case textBody = "TextBody"
        case htmlBody = "HtmlBody"
        case attachments = "Attachments"
        case messageStream = "MessageStream"
    }
}

/// One attachment: Postmark wants the bytes base64-encoded in `Content`.
private struct PostmarkAttachment: Encodable {
    let name: String
    let content: String
    let contentType: String

    enum CodingKeys: String, CodingKey {
        case name = "Name"
        case content = "Content"
        case contentType = "ContentType"
    }
}

/// Postmark's answer, success or failure: only `ErrorCode` is read. `Message` is for developers
/// and never shown; an undecodable body (a proxy's HTML page) is an answer without a code.
private struct PostmarkAnswer: Decodable {
    let errorCode: Int?

    enum CodingKeys: String, CodingKey {
        case errorCode = "ErrorCode"
    }

    static func decode(_ body: Data) -> PostmarkAnswer? {
        try? JSONDecoder().decode(PostmarkAnswer.self, from: body)
    }
}
