public import Foundation

/// Cryptographically secure random values. `SystemRandomNumberGenerator` reads the operating
/// system's CSPRNG on every platform Swift supports.
public enum Randomness {
    public static func bytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
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
        prefix + "_" + bytes(16).map { String(format: "%02x", $0) }.joined()
    }
}

extension Data {
    public func base64URLEncodedString() -> String {
        base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
