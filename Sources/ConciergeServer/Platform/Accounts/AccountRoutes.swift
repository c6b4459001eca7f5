import ConciergeCore
import ConciergeProviders
import ConciergeStore
import Hummingbird

/// The platform's accounts: the stores, bcrypt, the sessions, the ID-token verifier (with the
/// dev identity provider in dev mode only) and SMS-code proof of a phone. Built once by the
/// composition root and handed to every vertical in `PlatformServices`.
func makeAccountService(
    configuration: ServerConfiguration, database: any SQLDatabase, sessions: SessionService, signIn: SignInService,
    passwords: any PasswordHasher, hasher: SecretHasher, random: any RandomSource, clock: any TimeSource,
    devIdentity: DevIdentityProvider?
) -> AccountService {
    let accounts = configuration.accounts
    // Production never builds the dev provider, so its key cannot be trusted there.
    return AccountService(
        store: SQLAccountStore(database: database), sessions: sessions,
        passwords: passwords,
        idTokens: JWKSIDTokenVerifier(issuers: identityIssuers(accounts, clock: clock), dev: devIdentity, clock: clock),
        phoneProof: { phone, code, ip in try await signIn.proveCode(phone: phone, code: code, clientIP: ip) },
        hasher: hasher, random: random, clock: clock, policy: configuration.accountPolicy)
}

/// The `/account` routes and pages, and `/dev/id-token` in dev mode.
/// The account's pages come first: their negotiation of `GET /account` (and the sign-in and
/// sign-up paths) must wrap the API's routes, which are added after it. `/ops/orders` is mounted
/// here too, beside the operations index, with the verticals' cancellations it offers.
func mountAccounts(
    on router: Router<AppRequestContext>, platform: PlatformServices, cancellers: [String: any OrderCanceller]
) async throws {
    let issuers = identityIssuers(platform.configuration.accounts, clock: platform.clock)
    let pages = AccountPages(
        web: platform.web, accounts: platform.accounts, sessions: platform.sessions, phoneCodes: platform.signIn,
        devIdentity: platform.devIdentity, issuers: issuers,
        appleClientID: platform.configuration.accounts.appleAudiences.first,
        googleClientID: platform.configuration.accounts.googleAudiences.first,
        publicURL: platform.configuration.publicURL)
    pages.mountBeforeAPI(on: router)
    AccountController(accounts: platform.accounts, sessions: platform.sessions).addRoutes(to: router)
    AccountExportController(
        exporter: PersonalDataExporter(database: platform.database), sessions: platform.sessions, web: platform.web,
        clock: platform.clock
    ).addRoutes(to: router)
    pages.addRoutes(to: router)
    OperationsOrdersPagesController(
        web: platform.web, ledger: OperationsOrdersLedger(database: platform.database),
        verticals: VerticalModules.all.map(\.name), cancellers: cancellers
    ).addRoutes(to: router)
    if let dev = platform.devIdentity {
        DevIdentityController(provider: dev, configured: issuers).addRoutes(to: router)
    }
}

/// Apple and Google when their audiences are configured, and every configured OIDC issuer.
private func identityIssuers(_ configuration: AccountsConfiguration, clock: any TimeSource) -> [IDTokenIssuer] {
    let transport = AsyncHTTPClientTransport()
    func source(_ location: JWKSSource.Location) -> JWKSSource {
        JWKSSource(location: location, transport: transport, clock: clock)
    }
    var issuers: [IDTokenIssuer] = []
    if !configuration.appleAudiences.isEmpty {
        issuers.append(
            IDTokenIssuer(
                provider: .apple, issuers: [IDTokenIssuer.appleIssuer], audiences: configuration.appleAudiences,
                keys: source(configuration.appleKeys)))
    }
    if !configuration.googleAudiences.isEmpty {
        issuers.append(
            IDTokenIssuer(
                provider: .google, issuers: IDTokenIssuer.googleIssuers, audiences: configuration.googleAudiences,
                keys: source(configuration.googleKeys)))
    }
    for oidc in configuration.oidcIssuers {
        issuers.append(
            IDTokenIssuer(provider: .oidc, issuers: [oidc.issuer], audiences: [oidc.audience], keys: source(oidc.keys)))
    }
    return issuers
}
