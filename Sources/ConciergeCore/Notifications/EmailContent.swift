/// One email as the senders deliver it: a text part, optionally an HTML part, and attachments.
public struct EmailContent: Sendable, Equatable {
    public let to: String
    public let subject: String
    public let textBody: String
    public let htmlBody: String?
    public let attachments: [EmailAttachment]

    public init(
        to: String, subject: String, textBody: String, htmlBody: String? = nil, attachments: [EmailAttachment] = []
    ) {
        self.to = to
        self.subject = subject
        self.textBody = textBody
        self.htmlBody = htmlBody
        self.attachments = attachments
    }

    /// True when the text part is all there is.
    public var isPlainText: Bool { htmlBody == nil && attachments.isEmpty }
}
