import ConciergeCore
import ConciergeProviders
import ConciergeStore
import Hummingbird

/// Wires accounts and sessions: the stores, bcrypt, the session JWT signer, the ID-token
/// verifier (with the dev identity provider in dev mode only), and the `/account` routes.
func mountAccounts(on router: Router<AppRequestContext>, platform: PlatformServices) async throws {
    let configuration = platform.configuration.accounts
    let sessions = SessionService(
        store: SQLSessionStore(database: platform.database),
        signer: await JWTSessionTokenSigner(hasher: platform.hasher), hasher: platform.hasher,
        random: platform.random, clock: platform.clock)
    let issuers = identityIssuers(configuration, clock: platform.clock)
    // Production never builds the dev provider, so its key cannot be trusted there.
    let dev = platform.devIdentity
    var policy = AccountPolicy()
    policy.signInsPerAccount = configuration.signInsPerAccount
    policy.signInsPerNetwork = configuration.signInsPerNetwork
    policy.publicURL = platform.configuration.publicURL
    let signIn = platform.signIn
    let accounts = AccountService(
        store: SQLAccountStore(database: platform.database), sessions: sessions,
        passwords: BcryptPasswordHasher(cost: UInt8(configuration.bcryptCost), random: platform.random),
        idTokens: JWKSIDTokenVerifier(issuers: issuers, dev: dev, clock: platform.clock),
        phoneProof: { phone, code, ip in try await signIn.proveCode(phone: phone, code: code, clientIP: ip) },
        hasher: platform.hasher, random: platform.random, clock: platform.clock, policy: policy)
    AccountController(accounts: accounts, sessions: sessions).addRoutes(to: router)
    if let dev {
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
