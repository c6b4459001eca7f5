import ConciergeCore
import ConciergeProviders
import ConciergeStore

/// The platform's accounts and sessions as stays uses them: the same stores, secret and
/// bcrypt cost as `/account` (so a token or password works on both), built here because the
/// platform builds its own inside `mountAccounts`. Stays signs in by password only, so no ID
/// token issuer is configured.
enum StaysPlatformAccounts {
    static func sessions(_ platform: PlatformServices) async -> SessionService {
        SessionService(
            store: SQLSessionStore(database: platform.database),
            signer: await JWTSessionTokenSigner(hasher: platform.hasher), hasher: platform.hasher,
            random: platform.random, clock: platform.clock)
    }

    static func accounts(_ platform: PlatformServices, sessions: SessionService) async -> AccountService {
        let configuration = platform.configuration.accounts
        var policy = AccountPolicy()
        policy.signInsPerAccount = configuration.signInsPerAccount
        policy.signInsPerNetwork = configuration.signInsPerNetwork
        policy.publicURL = platform.configuration.publicURL
        let signIn = platform.signIn
        return AccountService(
            store: SQLAccountStore(database: platform.database), sessions: sessions,
            passwords: BcryptPasswordHasher(cost: UInt8(configuration.bcryptCost), random: platform.random),
            idTokens: JWKSIDTokenVerifier(issuers: [], dev: nil, clock: platform.clock),
            phoneProof: { phone, code, ip in try await signIn.proveCode(phone: phone, code: code, clientIP: ip) },
            hasher: platform.hasher, random: platform.random, clock: platform.clock, policy: policy)
    }
}
