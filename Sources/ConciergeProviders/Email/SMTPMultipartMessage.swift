import ConciergeCore
import Foundation

/// Renders an email with an HTML part and/or attachments as MIME (RFC 2045/2046): the text and
/// HTML parts as `multipart/alternative` (text first, so clients that show one part prefer the
/// HTML), inside `multipart/mixed` with one base64 part per attachment when there are any.
/// Text parts are quoted-printable and attachments base64 in 76-character lines, so the message
/// is 7-bit clean. Boundaries start with `=_`, which neither quoted-printable (it writes `=` as
/// `=3D`) nor base64 (no `_`) can produce, so no part can contain one.
enum SMTPMultipartMessage {
    static func render(from: String, email: EmailContent, date: Date, messageID: String) throws -> String {
        let seed = boundarySeed(messageID)
        var lines = [
            "Date: \(SMTPMessage.rfc5322Date(date))",
            "From: \(from)",
            "To: \(email.to)",
            "Subject: \(SMTPMessage.encodedHeaderText(email.subject))",
            "Message-ID: <\(messageID)>",
            "MIME-Version: 1.0",
        ]
        let body = bodyPart(email, seed: seed)
        if email.attachments.isEmpty {
            lines += body
        } else {
            let boundary = "=_concierge_mixed_\(seed)"
            lines += ["Content-Type: multipart/mixed; boundary=\"\(boundary)\"", "", "This is a MIME message.", ""]
            // The CRLF before each delimiter belongs to the delimiter (RFC 2046 5.1.1): no blank
            // line between a part and the next boundary, or the part would gain a line break.
            lines += ["--\(boundary)"] + body
            for attachment in email.attachments {
                lines += ["--\(boundary)"] + (try attachmentPart(attachment))
            }
            lines.append("--\(boundary)--")
        }
        return SMTPMessage.dotStuffed(lines.joined(separator: "\r\n")) + "\r\n"
    }

    /// The readable part: text alone, or text and HTML as alternatives. Headers, blank line, body.
    private static func bodyPart(_ email: EmailContent, seed: String) -> [String] {
        guard let html = email.htmlBody else { return textPart(email.textBody, subtype: "plain") }
        let boundary = "=_concierge_alternative_\(seed)"
        return [
            "Content-Type: multipart/alternative; boundary=\"\(boundary)\"", "",
            "--\(boundary)",
        ] + textPart(email.textBody, subtype: "plain") + ["--\(boundary)"] + textPart(html, subtype: "html") + [
            "--\(boundary)--"
        ]
    }

    private static func textPart(_ text: String, subtype: String) -> [String] {
        [
            "Content-Type: text/\(subtype); charset=utf-8", "Content-Transfer-Encoding: quoted-printable", "",
            SMTPMessage.quotedPrintable(text),
        ]
    }

    /// Reads the attachment's bytes, drawing them if it is a recipe.
    private static func attachmentPart(_ attachment: EmailAttachment) throws -> [String] {
        let name = filenameParameter(attachment.filename)
        return [
            "Content-Type: \(safeContentType(attachment.contentType)); \(name.replacingOccurrences(of: "filename", with: "name"))",
            "Content-Transfer-Encoding: base64",
            "Content-Disposition: attachment; \(name)",
            "",
            try attachment.content.base64EncodedString(options: [
                .lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed,
            ]),
        ]
    }

    /// `filename="ticket.png"` for plain ASCII names, RFC 2231 `filename*=UTF-8''…` otherwise;
    /// quotes, backslashes and line breaks never reach the header.
    static func filenameParameter(_ filename: String) -> String {
        let cleaned = String(
            String.UnicodeScalarView(filename.unicodeScalars.filter { !["\"", "\\", "\r", "\n"].contains($0) }))
        if cleaned.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F }) {
            return "filename=\"\(cleaned)\""
        }
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let encoded = cleaned.addingPercentEncoding(withAllowedCharacters: allowed) ?? "attachment"
        return "filename*=UTF-8''\(encoded)"
    }

    /// `type/subtype` from the caller, or `application/octet-stream` when it is not one.
    static func safeContentType(_ contentType: String) -> String {
        let parts = contentType.split(separator: "/")
        let token = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "!#$&-^_.+"))
        let valid =
            parts.count == 2 && parts.allSatisfy { !$0.isEmpty && $0.unicodeScalars.allSatisfy(token.contains) }
        return valid ? contentType.lowercased() : "application/octet-stream"
    }

    /// Sixteen hex digits derived from the Message-ID: the same message renders the same bytes.
    private static func boundarySeed(_ messageID: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in messageID.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
