/// Renders the texts customers receive from templates kept outside the code (Mustache files in
/// the providers' resources), so wording and HTML change without touching a service.
public protocol MessageTemplates: Sendable {
    /// Renders every part `message` has — `subject`, `text`, `html`, `sms` — with `values`.
    /// A value that is absent leaves its `{{#name}}…{{/name}}` section out. Throws when the
    /// message has no template at all.
    func render(_ message: String, values: [String: String]) throws -> RenderedMessage
}

/// The parts of one rendered message; a part without a template is nil.
public struct RenderedMessage: Sendable, Equatable {
    public let subject: String?
    public let text: String?
    public let html: String?
    public let sms: String?

    public init(subject: String?, text: String?, html: String?, sms: String?) {
        self.subject = subject
        self.text = text
        self.html = html
        self.sms = sms
    }

    /// The part, or an error naming the template that lacks it.
    public func required(_ part: KeyPath<RenderedMessage, String?>, _ name: String, of message: String) throws
        -> String
    {
        guard let value = self[keyPath: part] else {
            throw ConciergeError(
                .unavailable(retryAfterSeconds: nil), code: "template_missing",
                message: "The message template '\(message).\(name).mustache' is missing from the server's resources.")
        }
        return value
    }
}
