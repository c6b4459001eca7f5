public import Foundation

/// A message to send after a state change, written into the outbox in the same transaction as
/// the change and delivered by the worker: an email (text, optionally HTML and attachments), an
/// SMS, or a push notification.
public struct OutboxMessage: Sendable, Equatable {
    public enum Channel: String, Sendable, CaseIterable {
        case email
        case sms
        case push
    }

    /// One message of a kind per cause (`bkg_1:confirmation`): a replayed transition cannot
    /// queue it twice, and senders that can drop repeats use it as the delivery key.
    public let dedupeKey: String
    public let channel: Channel
    /// An email address, an E.164 phone number, or a push device token.
    public let recipient: String
    /// The email's subject, or the push notification's title.
    public let subject: String
    /// The email's text part, the SMS text, or the push notification's body.
    public let body: String
    /// The email's HTML part (sent as multipart/alternative next to `body`).
    public let htmlBody: String?
    /// Files attached to the email, e.g. a ticket's QR code as PNG.
    public let attachments: [EmailAttachment]
    /// The push notification's custom data, e.g. `["orderID": "ord_1"]`.
    public let data: [String: String]

    public init(
        dedupeKey: String, channel: Channel, recipient: String, subject: String, body: String,
        htmlBody: String? = nil, attachments: [EmailAttachment] = [], data: [String: String] = [:]
    ) {
        self.dedupeKey = dedupeKey
        self.channel = channel
        self.recipient = recipient
        self.subject = subject
        self.body = body
        self.htmlBody = htmlBody
        self.attachments = attachments
        self.data = data
    }

    public static func email(
        dedupeKey: String, to address: String, subject: String, text: String, html: String? = nil,
        attachments: [EmailAttachment] = []
    ) -> OutboxMessage {
        OutboxMessage(
            dedupeKey: dedupeKey, channel: .email, recipient: address, subject: subject, body: text, htmlBody: html,
            attachments: attachments)
    }

    public static func sms(dedupeKey: String, to phone: PhoneNumber, text: String) -> OutboxMessage {
        OutboxMessage(dedupeKey: dedupeKey, channel: .sms, recipient: phone.e164, subject: "", body: text)
    }

    public static func push(
        dedupeKey: String, deviceToken: String, title: String, body: String, data: [String: String] = [:]
    ) -> OutboxMessage {
        OutboxMessage(
            dedupeKey: dedupeKey, channel: .push, recipient: deviceToken, subject: title, body: body, data: data)
    }
}

/// The name rides has always used for an outbox message.
public typealias PendingNotification = OutboxMessage

/// A file sent with an email: its bytes, or a recipe the email provider draws them from when it
/// sends (see `QRCodePNGRecipe`), so work the recipient only needs at delivery stays out of the
/// request that queues the message.
public struct EmailAttachment: Sendable, Equatable {
    public enum Source: Sendable, Equatable {
        case bytes(Data)
        case qrCodePNG(QRCodePNGRecipe)
    }

    /// The name the recipient sees, e.g. `ticket-A12.png`.
    public let filename: String
    /// A MIME type, e.g. `image/png`.
    public let contentType: String
    public let source: Source

    public init(filename: String, contentType: String, source: Source) {
        self.filename = filename
        self.contentType = contentType
        self.source = source
    }

    public init(filename: String, contentType: String, content: Data) {
        self.init(filename: filename, contentType: contentType, source: .bytes(content))
    }

    /// The bytes to send: as given, or drawn from the recipe now (each read draws again; a
    /// provider reads once per send).
    public var content: Data {
        get throws {
            switch source {
            case .bytes(let data): data
            case .qrCodePNG(let recipe): try recipe.render()
            }
        }
    }
}
