import Foundation
import Hummingbird

/// The cookies the pages keep: the session, the CSRF secret, the language and the operator's
/// sign-in. All `HttpOnly` and `SameSite=Lax`, `Secure` when the public URL is https.
enum WebCookie {
    static let session = "concierge_session"
    static let csrf = "concierge_csrf"
    static let language = "concierge_lang"
    static let operatorSession = "concierge_ops"

    /// The request's cookies by name (the first of a repeated name wins).
    static func parse(_ request: Request) -> [String: String] {
        var cookies: [String: String] = [:]
        for header in request.headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2 else { continue }
                let name = parts[0].trimmingCharacters(in: .whitespaces)
                if cookies[name] == nil { cookies[name] = parts[1].trimmingCharacters(in: .whitespaces) }
            }
        }
        return cookies
    }

    /// A `Set-Cookie` value; `maxAge` nil is a browser-session cookie, 0 deletes it.
    static func setting(_ name: String, _ value: String, maxAge: Int?, secure: Bool) -> String {
        var parts = ["\(name)=\(value)", "Path=/", "HttpOnly", "SameSite=Lax"]
        if let maxAge { parts.append("Max-Age=\(maxAge)") }
        if secure { parts.append("Secure") }
        return parts.joined(separator: "; ")
    }
}
