import Foundation

/// Renders one plain-text email as the bytes sent after `DATA` (RFC 5322 + MIME), CRLF line
/// endings throughout, the body quoted-printable so the message is 7-bit clean whatever the
/// server supports, and dot-stuffed (RFC 5321 section 4.5.2). The terminating `.` line is not
/// included.
enum SMTPMessage {
    static func render(
        from: String, to: String, subject: String, textBody: String, date: Date, messageID: String
    ) -> String {
        var lines = [
            "Date: \(rfc5322Date(date))",
            "From: \(from)",
            "To: \(to)",
            "Subject: \(encodedHeaderText(subject))",
            "Message-ID: <\(messageID)>",
            "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: quoted-printable",
            "",
        ]
        lines.append(quotedPrintable(textBody))
        return dotStuffed(lines.joined(separator: "\r\n")) + "\r\n"
    }

    /// The Message-ID (without angle brackets): `concierge.<key>@<domain>` for a delivery key,
    /// the same on every attempt to deliver one notification, else a random one. The left side
    /// must be RFC 5322 dot-atom-text (atoms of letters, digits and `!#$%&'*+-/=?^_`{|}~` joined
    /// by single dots), so the key's `:` separators become `.` (`events:confirmed:ord_1` →
    /// `concierge.events.confirmed.ord_1`). Any other byte — and a `:` that would leave an empty
    /// atom — is written `~XX` (its hex value): `~` rather than `=`, which made the ID read like
    /// quoted-printable leaking into the header. Since `.` in the output only ever stands for `:`
    /// and every `~` starts an escape, two keys never share an ID.
    static func messageID(deliveryKey: String?, domain: String) -> String {
        guard let deliveryKey, !deliveryKey.isEmpty else { return "\(UUID().uuidString.lowercased())@\(domain)" }
        let bytes = Array(deliveryKey.utf8)
        let colon = UInt8(ascii: ":")
        var safe = ""
        for (index, byte) in bytes.enumerated() {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                safe.append(Character(UnicodeScalar(byte)))
            case colon
            where index > 0 && index < bytes.count - 1 && bytes[index - 1] != colon && bytes[index + 1] != colon:
                safe.append(".")
            default:
                safe += messageIDEscaped(byte)
            }
        }
        return "concierge.\(safe)@\(domain)"
    }

    private static func messageIDEscaped(_ byte: UInt8) -> String {
        "~" + String(escaped(byte).dropFirst())
    }

    /// `Thu, 01 Jan 2026 12:00:00 +0000`, always in UTC and English as RFC 5322 requires.
    static func rfc5322Date(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        return formatter.string(from: date)
    }

    /// A header value as-is when it is short printable ASCII, otherwise RFC 2047 encoded-words
    /// (`=?UTF-8?B?…?=`), each at most 75 characters and folded onto continuation lines. Line
    /// breaks in the input become spaces: a header must never be able to start another header.
    static func encodedHeaderText(_ text: String) -> String {
        let flattened = text.replacingOccurrences(of: "\r\n", with: " ")
            .replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: " ")
        let isPlainASCII = flattened.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F }
        if isPlainASCII && !flattened.contains("=?") && flattened.utf8.count <= 900 { return flattened }
        // 75 - len("=?UTF-8?B?") - len("?=") = 63 base64 characters, so at most 45 bytes a word.
        var words: [String] = []
        var chunk: [UInt8] = []
        for scalar in flattened.unicodeScalars {
            let bytes = Array(String(scalar).utf8)
            if chunk.count + bytes.count > 45 {
                words.append(chunk.isEmpty ? "" : "=?UTF-8?B?\(Data(chunk).base64EncodedString())?=")
                chunk = []
            }
            chunk += bytes
        }
        if !chunk.isEmpty { words.append("=?UTF-8?B?\(Data(chunk).base64EncodedString())?=") }
        return words.filter { !$0.isEmpty }.joined(separator: "\r\n ")
    }

    /// RFC 2045 quoted-printable with CRLF hard line breaks and `=` soft breaks keeping every line
    /// within 76 characters. Any of CRLF, LF or CR in the input is a line break.
    static func quotedPrintable(_ text: String) -> String {
        let normalized = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        return normalized.split(separator: "\n", omittingEmptySubsequences: false)
            .map { encodeLine(Array($0.utf8)) }.joined(separator: "\r\n")
    }

    private static func encodeLine(_ bytes: [UInt8]) -> String {
        var output = ""
        var lineLength = 0
        for (index, byte) in bytes.enumerated() {
            let isLast = index == bytes.count - 1
            let token: String
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"):
                // Trailing white space is dropped by some transports, so it is encoded there.
                token = isLast ? escaped(byte) : String(UnicodeScalar(byte))
            case 33...60, 62...126:
                token = String(UnicodeScalar(byte))
            default:
                token = escaped(byte)
            }
            // Room for the token plus a trailing "=" soft break, unless this is the last token.
            if lineLength + token.count > (isLast ? 76 : 75) {
                output += "=\r\n"
                lineLength = 0
            }
            output += token
            lineLength += token.count
        }
        return output
    }

    private static func escaped(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "=" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
    }

    /// Doubles a leading `.` on every line so no line of the message can end the `DATA` phase.
    static func dotStuffed(_ text: String) -> String {
        text.components(separatedBy: "\r\n").map { $0.hasPrefix(".") ? "." + $0 : $0 }.joined(separator: "\r\n")
    }
}
