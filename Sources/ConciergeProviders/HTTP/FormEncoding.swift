import Foundation

/// `application/x-www-form-urlencoded` bodies, as Twilio (and most payment APIs) expect them.
///
/// Everything but the RFC 3986 unreserved characters is percent-encoded. Foundation's
/// `urlQueryAllowed` is deliberately not used: it leaves `+` alone, and a server decoding a form
/// reads a bare `+` as a space, which would turn `+41791234567` into ` 41791234567`.
enum FormEncoding {
    /// Pairs stay in the given order, so the same fields always give the same bytes.
    static func encode(_ pairs: [(String, String)]) -> String {
        pairs.map { "\(percentEncode($0.0))=\(percentEncode($0.1))" }.joined(separator: "&")
    }

    static func body(_ pairs: [(String, String)]) -> Data {
        Data(encode(pairs).utf8)
    }

    /// Also used for URL path segments built from configuration, so a stray `/` or `?` in a
    /// configured id cannot change which endpoint is called.
    static func percentEncode(_ text: String) -> String {
        var encoded = ""
        encoded.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded += "%" + hexDigits[Int(byte >> 4)] + hexDigits[Int(byte & 0x0F)]
            }
        }
        return encoded
    }

    private static let hexDigits = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "A", "B", "C", "D", "E", "F"]

    /// RFC 3986 section 2.3: ALPHA / DIGIT / "-" / "." / "_" / "~".
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }
}
