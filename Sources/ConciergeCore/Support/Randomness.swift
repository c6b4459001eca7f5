public import Foundation

/// Cryptographically secure random values. `SystemRandomNumberGenerator` reads the operating
/// system's CSPRNG on every platform Swift supports.
public enum Randomness {
    public static func bytes(_ count: Int) -> [UInt8] {
        // Eight bytes per draw: each draw is a call into the kernel.
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + 7)
        while bytes.count < count {
            withUnsafeBytes(of: generator.next() as UInt64) { bytes.append(contentsOf: $0) }
        }
        return Array(bytes.prefix(count))
    }

    /// `count` decimal digits, each uniformly distributed (no modulo bias).
    public static func digits(_ count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<count).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) })
    }

    /// A URL-safe token carrying `byteCount` random bytes.
    public static func token(byteCount: Int = 32) -> String {
        Data(bytes(byteCount)).base64URLEncodedString()
    }

    /// A short random identifier for rows (128 bits).
    public static func identifier(prefix: String) -> String {
        prefix + "_" + bytes(16).lowercaseHex
    }
}

extension Data {
    /// Base64 with the URL-safe alphabet and no padding (RFC 4648 §5).
    public func base64URLEncodedString() -> String {
        let bytes = base64EncodedData().compactMap { byte -> UInt8? in
            switch byte {
            case UInt8(ascii: "+"): UInt8(ascii: "-")
            case UInt8(ascii: "/"): UInt8(ascii: "_")
            case UInt8(ascii: "="): nil
            default: byte
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
