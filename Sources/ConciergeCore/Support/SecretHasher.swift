import Crypto
import Foundation

/// Keyed hashing for secrets we must recognise but never store: one-time codes and session
/// tokens. HMAC-SHA256 under the server's secret means a leaked database does not reveal
/// codes or tokens, and cannot be brute-forced offline without the key.
public struct SecretHasher: Sendable {
    private let key: SymmetricKey

    public init(secret: String) {
        self.key = SymmetricKey(data: Data(secret.utf8))
    }

    /// Hex digest of `value` bound to a `purpose`, so a code hash can never match a token hash.
    public func hash(_ value: String, purpose: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data("\(purpose)\u{0}\(value)".utf8), using: key)
        return mac.lowercaseHex
    }

    /// Compares two digests without an early exit, so timing does not reveal how many leading
    /// characters matched.
    public static func constantTimeEquals(_ lhs: String, _ rhs: String) -> Bool {
        let a = Array(lhs.utf8)
        let b = Array(rhs.utf8)
        var difference = UInt8(truncatingIfNeeded: a.count ^ b.count)
        for index in 0..<max(a.count, b.count) {
            let x = index < a.count ? a[index] : 0
            let y = index < b.count ? b[index] : 0
            difference |= x ^ y
        }
        return difference == 0
    }
}
