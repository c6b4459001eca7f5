import Crypto
import Foundation

/// Digests of content we publish (not secrets): a Content-Security-Policy names an inline
/// stylesheet or script it allows by the base64 of its SHA-256.
public enum ContentDigest {
    public static func sha256Base64(_ text: String) -> String {
        Data(SHA256.hash(data: Data(text.utf8))).base64EncodedString()
    }
}
