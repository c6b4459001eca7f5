import ConciergeCore
import ConciergeModels
import Hummingbird

/// `GET /dev/outbox[?to=RECIPIENT]`: the messages the dev outbox kept, oldest first — SMS, email
/// (with `html` and the `attachments`' names when it had them) and push (`subject` is the title,
/// `data` its payload). Mounted in dev mode only.
struct DevOutboxController {
    let outbox: any OutboxStore

    struct Message: Encodable {
        let channel: String
        let to: String
        let subject: String?
        let body: String
        let createdAt: String
        let html: String?
        let attachments: [String]
        let data: [String: String]

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(channel, forKey: .channel)
            try container.encode(to, forKey: .to)
            // Email and push messages always carry a subject (a push's title); SMS never do.
            if channel != "sms" { try container.encode(subject, forKey: .subject) }
            try container.encode(body, forKey: .body)
            try container.encode(createdAt, forKey: .createdAt)
            // Only when present, so text-only messages read as they always did.
            try container.encodeIfPresent(html, forKey: .html)
            if !attachments.isEmpty { try container.encode(attachments, forKey: .attachments) }
            if !data.isEmpty { try container.encode(data, forKey: .data) }
        }

        enum CodingKeys: String, CodingKey { case channel, to, subject, body, createdAt, html, attachments, data }
    }

    struct Listing: Encodable {
        let messages: [Message]
    }

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("dev/outbox", use: list)
    }

    @Sendable func list(request: Request, context: AppRequestContext) async throws -> Response {
        let recipient = request.uri.queryParameters["to"].map(String.init)
        let messages = try await outbox.messages(to: recipient).map {
            Message(
                channel: $0.channel.rawValue, to: $0.to, subject: $0.subject, body: $0.body,
                createdAt: WireDate.string(from: $0.createdAt), html: $0.htmlBody, attachments: $0.attachmentNames,
                data: $0.data)
        }
        return try jsonResponse(Listing(messages: messages))
    }
}
