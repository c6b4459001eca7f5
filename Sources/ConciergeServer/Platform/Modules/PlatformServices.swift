import ConciergeCore
import ConciergeProviders
import ConciergeStore
import Logging

/// What the platform hands every vertical: storage, time, randomness, identity, payments, the
/// outbox and the shared third-party providers. Built once by the composition root.
struct PlatformServices: Sendable {
    let configuration: ServerConfiguration
    let database: any SQLDatabase
    let clock: any TimeSource
    let random: any RandomSource
    let logger: Logger
    /// Keyed hashes of codes and tokens, under the server secret.
    let hasher: SecretHasher
    let identity: SQLIdentityStore
    /// Sign-in by SMS code (the phone method of every account).
    let signIn: SignInService
    /// The configured payment provider (sandbox, Mollie or Stripe).
    let payments: any PaymentProvider
    /// The embedded checkout; mounted in dev mode.
    let sandbox: SandboxPaymentProvider
    let stripeVerifiers: [StripeWebhookVerifier]
    /// Hands provider news about a payment to the vertical that owns it.
    let dispatcher: PaymentDispatcher
    /// Places search and routes: Google when configured, the gazetteer and estimator otherwise.
    let places: any PlacesProvider
    let routes: any RouteProvider
    /// The embedded identity provider of `/dev/id-token`, in dev mode only (nil in production),
    /// so every verifier that should trust dev ID tokens shares its one key.
    let devIdentity: DevIdentityProvider?
    /// bcrypt at the configured cost: one for every vertical's accounts.
    let passwords: any PasswordHasher
    /// Sessions of every kind in the one table (bearer tokens, JWT access and refresh tokens).
    let sessions: SessionService
    /// Accounts and their sign-in methods (the `/account` API's service).
    let accounts: AccountService
    /// The web front end's templates, words, cookies and CSRF checks; each vertical adds its pages.
    let web: WebFrontEnd
    /// What instances sharing the database tell each other (PostgreSQL); nil on SQLite.
    let cluster: (any ClusterNotices)?
}
