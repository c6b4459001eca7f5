import ConciergeCore
import ConciergeStore

/// The platform's one `AccountService` and sessions as stays uses them: every sign-in method the
/// platform has (password, any trusted ID token, an SMS code) signs in to stays too, and a
/// registration is the same service over a store that writes the new guest's profile in the
/// account's own transaction.
enum StaysPlatformAccounts {
    static func sessions(_ platform: PlatformServices) -> SessionService {
        platform.sessions
    }

    static func accounts(_ platform: PlatformServices) -> AccountService {
        platform.accounts
    }

    static func registering(_ platform: PlatformServices) -> @Sendable (StaysAccountService.NewGuest) -> AccountService
    {
        let accounts = platform.accounts
        let database = platform.database
        return { guest in accounts.over(store: SQLStaysRegistrationAccounts(database: database, guest: guest)) }
    }
}
