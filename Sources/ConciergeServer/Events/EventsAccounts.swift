import ConciergeCore
import ConciergeProviders
import ConciergeStore
import Foundation

/// The platform's accounts and sessions as events uses them: the same stores, bcrypt cost,
/// throttles and session signer as `/account` (tokens are interchangeable), built here because
/// the platform's own are private to its routes.
struct EventsAccounts {
    let accounts: AccountService
    let sessions: SessionService
    let links: AccountService.MailLinks

    init(platform: PlatformServices) async {
        let configuration = platform.configuration.accounts
        sessions = platform.sessions
        // Apple and Google as configured for the platform, and in dev mode the dev identity
        // provider of `/dev/id-token` (the platform's one key; production has none to trust).
        accounts = platform.accountService(
            store: SQLAccountStore(database: platform.database),
            idTokens: JWKSIDTokenVerifier(
                issuers: Self.issuers(configuration, clock: platform.clock), dev: platform.devIdentity,
                clock: platform.clock))
        let publicURL = platform.configuration.publicURL
        links = AccountService.MailLinks(
            verifyEmail: { token, email in
                "\(publicURL)/events/verify-email?token=\(token)&email=\(Self.queryEscaped(email))"
            },
            resetPassword: { token, email in
                "\(publicURL)/events/reset-password?token=\(token)&email=\(Self.queryEscaped(email))"
            })
    }

    private static func issuers(_ configuration: AccountsConfiguration, clock: any TimeSource) -> [IDTokenIssuer] {
        let transport = AsyncHTTPClientTransport()
        var issuers: [IDTokenIssuer] = []
        if !configuration.appleAudiences.isEmpty {
            issuers.append(
                IDTokenIssuer(
                    provider: .apple, issuers: [IDTokenIssuer.appleIssuer], audiences: configuration.appleAudiences,
                    keys: JWKSSource(location: configuration.appleKeys, transport: transport, clock: clock)))
        }
        if !configuration.googleAudiences.isEmpty {
            issuers.append(
                IDTokenIssuer(
                    provider: .google, issuers: IDTokenIssuer.googleIssuers, audiences: configuration.googleAudiences,
                    keys: JWKSSource(location: configuration.googleKeys, transport: transport, clock: clock)))
        }
        return issuers
    }

    static func queryEscaped(_ text: String) -> String {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
