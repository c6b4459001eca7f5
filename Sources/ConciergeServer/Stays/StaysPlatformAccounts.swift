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

    static func accounts(_ platform: PlatformServices) async -> AccountService {
        platform.accountService(
            store: SQLAccountStore(database: platform.database),
            idTokens: JWKSIDTokenVerifier(issuers: [], dev: nil, clock: platform.clock))
    }
}

extension StaysPlatformAccounts {
    /// The platform's accounts for one registration: the same policy, hashing and sessions, over
    /// a store that writes the new guest's profile in the account's own transaction.
    static func registering(_ platform: PlatformServices) async
        -> @Sendable (StaysAccountService.NewGuest) -> AccountService
    {
        let idTokens = JWKSIDTokenVerifier(issuers: [], dev: nil, clock: platform.clock)
        return { guest in
            platform.accountService(
                store: SQLStaysRegistrationAccounts(database: platform.database, guest: guest), idTokens: idTokens)
        }
    }
}
