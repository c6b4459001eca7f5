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
    /// Who is signed in to `/ops` (a named operator, or the admin token before the first one).
    let operatorIdentity: OperatorIdentity?
    /// The path and query of the page, for the language switcher and sign-in returns.
    let path: String
    /// The request posted a form: the page answering it (a refused form shown again) lives at the
    /// form's target, which a link cannot open, so the language switcher needs the form's page.
    let answersForm: Bool
    /// `Set-Cookie` values the answer carries (a first visit's CSRF secret, a language choice).
    var cookies: [String]

    var accountID: String? { session?.accountID }
    var isSignedIn: Bool { session != nil }
    var isOperator: Bool { operatorIdentity != nil }

    /// Where the language switcher leads: this page, or for a refused form shown again, the page
    /// the form is on. `address` is that page when the handler names it; otherwise the platform's
    /// convention for form targets applies: a form posted to `/account/web/sign-in` is on
    /// `/account/sign-in`, and every other form posts to its own page's path.
    func languageSwitchAddress(_ address: String?) -> String {
        guard answersForm else { return path }
        if let address { return address }
        guard let marker = path.range(of: "/web/") else { return path }
        let page = path.replacingCharacters(in: marker, with: "/")
        return String(page.prefix { $0 != "?" })
    }
}
