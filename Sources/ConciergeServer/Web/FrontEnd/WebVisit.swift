import ConciergeCore
import Foundation

/// One page request as the front end sees it: the visitor's language, their account session
/// (from the session cookie) if any, the CSRF token their forms carry, whether they are signed in
/// as an operator, and the cookies the answer must set.
struct WebVisit: Sendable {
    let language: WebLanguage
    /// The live platform session the session cookie names; nil when signed out.
    let session: SessionService.Authenticated?
    /// The session cookie's token (a bearer token of the platform's sessions), for verticals
    /// whose services resolve their customer from it (rides' SMS sign-in).
    let sessionToken: String?
    /// The value every form posts as `_csrf`.
    let csrfToken: String
    let isOperator: Bool
    /// The path and query of the page, for the language switcher and sign-in returns.
    let path: String
    /// `Set-Cookie` values the answer carries (a first visit's CSRF secret, a language choice).
    var cookies: [String]

    var accountID: String? { session?.accountID }
    var isSignedIn: Bool { session != nil }
}
