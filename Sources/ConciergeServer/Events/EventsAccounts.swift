import ConciergeCore
import Foundation

/// The platform's one `AccountService` and sessions as events uses them (tokens are
/// interchangeable with `/account`'s, and every issuer the platform trusts — Apple, Google, the
/// configured OIDC issuers, the dev provider in dev mode — signs in here too), plus SMS codes
/// for phone sign-in and where events' account emails point.
struct EventsAccounts {
    let accounts: AccountService
    let sessions: SessionService
    /// Sends the code of a phone sign-in (the platform's SMS sign-in, as rides uses it).
    let phoneCodes: SignInService
    let links: AccountService.MailLinks

    init(platform: PlatformServices) {
        accounts = platform.accounts
        sessions = platform.sessions
        phoneCodes = platform.signIn
        let publicURL = platform.configuration.publicURL
        links = AccountService.MailLinks(
            verifyEmail: { token, email in
                "\(publicURL)/events/verify-email?token=\(token)&email=\(Self.queryEscaped(email))"
            },
            resetPassword: { token, email in
                "\(publicURL)/events/reset-password?token=\(token)&email=\(Self.queryEscaped(email))"
            })
    }

    static func queryEscaped(_ text: String) -> String {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
