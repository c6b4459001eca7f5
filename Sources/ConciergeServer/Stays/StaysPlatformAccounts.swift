import ConciergeCore
import ConciergeProviders
import ConciergeStore

/// The platform's accounts and sessions as stays uses them: the same stores, secret and
/// bcrypt cost as `/account` (so a token or password works on both), built here because the
/// platform builds its own inside `mountAccounts`. Stays signs in by password only, so no ID
/// token issuer is configured.
enum StaysPlatformAccounts {
    static func sessions(_ platform: PlatformServices) async -> SessionService {
        platform.sessions
    }

    static func accounts(_ platform: PlatformServices, sessions: SessionService) async -> AccountService {
        let signIn = platform.signIn
        return AccountService(
            store: SQLAccountStore(database: platform.database), sessions: sessions,
            passwords: platform.passwords,
            idTokens: JWKSIDTokenVerifier(issuers: [], dev: nil, clock: platform.clock),
            phoneProof: { phone, code, ip in try await signIn.proveCode(phone: phone, code: code, clientIP: ip) },
            hasher: platform.hasher, random: platform.random, clock: platform.clock,
            policy: platform.configuration.accountPolicy)
    }
}

extension StaysPlatformAccounts {
    /// The platform's accounts for one registration: the same policy, hashing and sessions, over
    /// a store that writes the new guest's profile in the account's own transaction.
    static func registering(_ platform: PlatformServices, sessions: SessionService) async
        -> @Sendable (StaysAccountService.NewGuest) -> AccountService
    {
        let policy = platform.configuration.accountPolicy
        let signIn = platform.signIn
        let passwords = platform.passwords
        let idTokens = JWKSIDTokenVerifier(issuers: [], dev: nil, clock: platform.clock)
        return { guest in
            AccountService(
                store: SQLStaysRegistrationAccounts(database: platform.database, guest: guest), sessions: sessions,
                passwords: passwords, idTokens: idTokens,
                phoneProof: { phone, code, ip in try await signIn.proveCode(phone: phone, code: code, clientIP: ip) },
                hasher: platform.hasher, random: platform.random, clock: platform.clock, policy: policy)
        }
    }
}
