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

    /// Compares two secrets in constant time. Both sides are hashed first, so inputs of any
    /// length compare safely, and swift-crypto's digest equality is constant time: timing reveals
    /// neither how many leading characters matched nor (beyond the hash) the length.
    public static func constantTimeEquals(_ lhs: String, _ rhs: String) -> Bool {
        SHA256.hash(data: Data(lhs.utf8)) == SHA256.hash(data: Data(rhs.utf8))
    }

}
