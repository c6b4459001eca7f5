import ConciergeCore
import Foundation
import Testing

@testable import ConciergeProviders

/// The SMTP sender's MIME structure (RFC 2045/2046), read back by a small parser: the headers,
/// the boundaries, the parts in order, and attachments that decode to the bytes that went in.
@Suite struct MimeMessageTests {
    /// One MIME entity: its headers (lower-cased names) and its raw body.
    struct Entity {
        let headers: [String: String]
        let body: String

        init(_ raw: String) throws {
            let split = try #require(raw.range(of: "\r\n\r\n"), "no blank line after the headers")
            var headers: [String: String] = [:]
            var lastName: String?
            for line in raw[..<split.lowerBound].components(separatedBy: "\r\n") {
                if line.hasPrefix(" "), let name = lastName {
                    headers[name, default: ""] += line  // a folded continuation
                    continue
                }
                let colon = try #require(line.firstIndex(of: ":"), "a header line without a colon: \(line)")
                let name = line[..<colon].lowercased()
                headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                lastName = name
            }
            self.headers = headers
            self.body = String(raw[split.upperBound...])
        }

        var boundary: String? {
            guard let type = headers["content-type"], let start = type.range(of: "boundary=\"") else { return nil }
            return String(type[start.upperBound...].prefix { $0 != "\"" })
        }

        /// The parts between `--boundary` lines, up to the closing `--boundary--`.
        func parts() throws -> [Entity] {
            let boundary = try #require(boundary, "not a multipart entity")
            let end = try #require(body.range(of: "\r\n--\(boundary)--"), "no closing boundary")
            let chunks = ("\r\n" + body[..<end.lowerBound]).components(separatedBy: "\r\n--\(boundary)\r\n")
            return try chunks.dropFirst().map(Entity.init)
        }

        /// The body decoded by its Content-Transfer-Encoding.
        func decoded() throws -> Data {
            switch headers["content-transfer-encoding"] {
            case "base64":
                return try #require(Data(base64Encoded: body, options: .ignoreUnknownCharacters))
            case "quoted-printable":
                return Self.unquote(body)
            default:
                return Data(body.utf8)
            }
        }

        static func unquote(_ text: String) -> Data {
            var bytes: [UInt8] = []
            let raw = Array(text.replacingOccurrences(of: "=\r\n", with: "").utf8)
            var index = 0
            while index < raw.count {
                if raw[index] == UInt8(ascii: "="), index + 2 < raw.count + 0,
                    let value = UInt8(String(decoding: raw[(index + 1)...(index + 2)], as: UTF8.self), radix: 16)
                {
                    bytes.append(value)
                    index += 3
                } else {
                    bytes.append(raw[index])
                    index += 1
                }
            }
            return Data(bytes)
        }
    }

    /// A PNG's first bytes and every byte value after them, so the round trip covers all 256.
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0...255).map { UInt8($0) })
    static let text = "Your ticket for Show 1.\n\nSeat A12 — row A.\n.a line starting with a dot"
    static let html = "<p>Your ticket for <b>Show 1</b>: seat A12 — row A.</p>"

    static func render(_ email: EmailContent) throws -> Entity {
        let rendered = try SMTPMultipartMessage.render(
            from: "Concierge <tickets@example.com>", email: email, date: Date(timeIntervalSince1970: 1_800_000_000),
            messageID: "concierge.tkt_1.ticket@example.com")
        #expect(rendered.hasSuffix("\r\n"))
        #expect(!rendered.contains("\n.a line"), "a line starting with a dot must be dot-stuffed")
        #expect(rendered.utf8.allSatisfy { $0 < 0x80 }, "the message must be 7-bit clean")
        #expect(rendered.components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 998 })
        // What the receiving server stores after undoing the dot-stuffing.
        return try Entity(rendered.replacingOccurrences(of: "\r\n..", with: "\r\n."))
    }

    @Test func htmlAndAttachmentsAreMixedAroundAlternatives() throws {
        let message = try Self.render(
            EmailContent(
                to: "anna@example.ch", subject: "Your tickets", textBody: Self.text, htmlBody: Self.html,
                attachments: [
                    EmailAttachment(filename: "ticket-A12.png", contentType: "image/png", content: Self.png),
                    EmailAttachment(
                        filename: "Sitzplan Zürich.pdf", contentType: "application/pdf", content: Data("%PDF".utf8)),
                ]))
        #expect(message.headers["mime-version"] == "1.0")
        #expect(message.headers["message-id"] == "<concierge.tkt_1.ticket@example.com>")
        #expect(message.headers["content-type"]?.hasPrefix("multipart/mixed; boundary=\"=_") == true)

        let parts = try message.parts()
        #expect(parts.count == 3)
        let alternative = parts[0]
        #expect(alternative.headers["content-type"]?.hasPrefix("multipart/alternative; boundary=\"=_") == true)
        #expect(alternative.boundary != message.boundary)
        let readable = try alternative.parts()
        #expect(
            readable.map { $0.headers["content-type"] } == [
                "text/plain; charset=utf-8", "text/html; charset=utf-8",
            ])
        #expect(
            String(decoding: try readable[0].decoded(), as: UTF8.self)
                == Self.text.replacingOccurrences(of: "\n", with: "\r\n"))
        #expect(String(decoding: try readable[1].decoded(), as: UTF8.self) == Self.html)

        let ticket = parts[1]
        #expect(ticket.headers["content-type"] == "image/png; name=\"ticket-A12.png\"")
        #expect(ticket.headers["content-disposition"] == "attachment; filename=\"ticket-A12.png\"")
        #expect(ticket.headers["content-transfer-encoding"] == "base64")
        #expect(ticket.body.components(separatedBy: "\r\n").allSatisfy { $0.count <= 76 })
        #expect(try ticket.decoded() == Self.png)

        let plan = parts[2]
        #expect(plan.headers["content-disposition"] == "attachment; filename*=UTF-8''Sitzplan%20Z%C3%BCrich.pdf")
        #expect(try plan.decoded() == Data("%PDF".utf8))
    }

    @Test func htmlWithoutAttachmentsIsOneAlternative() throws {
        let message = try Self.render(
            EmailContent(to: "anna@example.ch", subject: "Bestätigt", textBody: "Hi", htmlBody: "<p>Hi</p>"))
        #expect(message.headers["content-type"]?.hasPrefix("multipart/alternative;") == true)
        #expect(message.headers["subject"]?.hasPrefix("=?UTF-8?B?") == true)
        let parts = try message.parts()
        #expect(parts.count == 2)
        #expect(try parts.map { String(decoding: try $0.decoded(), as: UTF8.self) } == ["Hi", "<p>Hi</p>"])
    }

    @Test func attachmentsWithoutHtmlMixTheTextPartAndAnUnsafeTypeBecomesOctetStream() throws {
        let message = try Self.render(
            EmailContent(
                to: "anna@example.ch", subject: "Receipt", textBody: "See attached.",
                attachments: [
                    EmailAttachment(
                        filename: "a\"b\r\nc.bin", contentType: "text/html\r\nX-Evil: 1", content: Data([0, 1]))
                ]))
        let parts = try message.parts()
        #expect(parts.count == 2)
        #expect(parts[0].headers["content-type"] == "text/plain; charset=utf-8")
        #expect(parts[1].headers["content-type"] == "application/octet-stream; name=\"abc.bin\"")
        #expect(parts[1].headers["x-evil"] == nil)
        #expect(try parts[1].decoded() == Data([0, 1]))
    }
}
