public import ConciergeCore
import ConciergeProviders
import ConciergeStore
import Foundation
public import Hummingbird
public import Logging

/// The composition root: reads the configuration value once, opens storage, picks providers and
/// mounts every controller. Nothing else decides what runs.
///
/// - Parameters:
///   - clock: the time source of every rule; tests pass a `ManualTimeSource`.
///   - drain: the shutdown drain `/ready` reports (run it after the application: `TracingSetup.run`).
///   - onServerRunning: called with the bound port once the server listens (port 0 picks one).
public func buildApplication(
    configuration: ServerConfiguration,
    clock: any TimeSource = SystemTimeSource(),
    logger: Logger = Logger(label: "concierge"),
    drain: ShutdownDrain? = nil,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) async throws -> some ApplicationProtocol {
    try await makeApplication(
        assembly: assemble(configuration: configuration, clock: clock, logger: logger, drain: drain),
        configuration: configuration, onServerRunning: onServerRunning)
}

func makeApplication(
    assembly: Assembly, configuration: ServerConfiguration, onServerRunning: @escaping @Sendable (Int) async -> Void
) -> some ApplicationProtocol {
    Application(
        router: assembly.router,
        // An idle timeout, so connections that never finish their request (slowloris) are closed.
        server: .http1AnsweringMalformedRequests(
            configuration: .init(idleTimeout: .seconds(Int64(configuration.httpIdleTimeout))),
            renderers: assembly.renderers),
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "Concierge"),
        services: [DatabaseService(database: assembly.database), assembly.maintenance] + assembly.metrics.services
            + (assembly.scheduledBackups.map { [$0] } ?? []) + (assembly.clusterNotices.map { [$0] } ?? []),
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? configuration.port) },
        logger: assembly.logger)
}

/// The wired router and the database it uses.
struct Assembly {
    let router: Router<AppRequestContext>
    let database: any SQLDatabase
    let logger: Logger
    let maintenance: MaintenanceService
    let metrics: MetricsWiring
    /// Each vertical's error body, also for requests the HTTP parser refuses.
    let renderers: ErrorRenderers
    /// The instance's ear on PostgreSQL's notices (nil on SQLite).
    var clusterNotices: ClusterNoticesService? = nil
    /// A worker of their own, so a long backup never holds up deliveries and expiries.
    var scheduledBackups: MaintenanceService? = nil
}

/// - Parameters:
///   - smsSender: replaces the configured SMS provider (tests that need a slow or failing one).
///   - paymentProvider: replaces the configured payment provider (webhook tests).
///   - random: the source of every reference, code and token; tests may pass a seeded one.
func assemble(
    configuration: ServerConfiguration, clock: any TimeSource, logger: Logger, smsSender: (any SMSSender)? = nil,
    paymentProvider: (any PaymentProvider)? = nil, random: any RandomSource = SystemRandomSource(),
    modules: [any VerticalModule] = VerticalModules.all, drain: ShutdownDrain? = nil
) async throws -> Assembly {
    var logger = logger
    logger.logLevel = configuration.logLevel
    // Before anything makes a metric: a metric keeps the factory it was made with.
    MetricsWiring.prepareProcess(configuration)

    // Outermost, the operators' audit: an `/ops` action's entry joins the transaction that makes it.
    let engine = try await configuration.storage.open(logger: logger)
    let database = OperatorAuditingDatabase(
        wrapping: InstrumentedDatabase(wrapping: engine, engine: configuration.storage.engineName))
    // Several instances can share PostgreSQL: they tell each other what their caches must drop.
    let clusterNotices = (engine as? PostgresEngine).map { PostgresClusterNotices(engine: $0, logger: logger) }
    let migrator = Migrator(database: database, groups: MigrationGroups.platform + modules.compactMap(\.migrations))
    if configuration.autoMigrate {
        let applied = try await migrator.migrate(now: clock.now)
        if !applied.isEmpty { logger.info("applied migrations \(applied)") }
    }
    let secret = try await resolveSecret(configuration, database: database)
    let hasher = SecretHasher(secret: secret)
    // Scheduled backups (CONCIERGE_BACKUP_EVERY): their state shows on /ready and in /metrics.
    let backups = try BackupSchedule(environment: configuration.environment).map {
        ScheduledBackups(
            schedule: $0, backup: DatabaseBackup(configuration: configuration, logger: logger, now: { clock.now }),
            clock: clock, logger: logger)
    }
    let metrics = MetricsWiring(
        configuration: configuration, database: database, clock: clock, verticals: modules.map(\.name), logger: logger,
        backups: backups?.status)

    let identity = SQLIdentityStore(database: database)
    let outbox = SQLOutboxStore(database: database)
    let signIn = SignInService(
        store: identity,
        codes: try smsSender.map { .local($0) }
            ?? codeAuthority(configuration, outbox: outbox, clock: clock, logger: logger),
        hasher: hasher, policy: configuration.signIn, clock: clock, random: random)
    let maps = try mapsProviders(configuration, clock: clock, logger: logger)
    let sandbox = SandboxPaymentProvider(
        ledger: SQLSandboxLedger(database: database), publicURL: configuration.publicURL, random: random,
        clock: clock)
    let payments: any PaymentProvider
    var stripeVerifiers: [StripeWebhookVerifier] = []
    switch configuration.payments {
    case _ where paymentProvider != nil:
        payments = paymentProvider ?? sandbox
        if case .stripe(_, let webhookSecrets) = configuration.payments {
            stripeVerifiers = webhookSecrets.map { StripeWebhookVerifier(secret: $0) }
        }
    case .sandbox:
        payments = sandbox
    case .mollie(let apiKey):
        payments = MolliePaymentProvider(apiKey: apiKey, logger: logger)
    case .stripe(let secretKey, let webhookSecrets):
        payments = StripePaymentProvider(secretKey: secretKey, clock: clock, logger: logger)
        stripeVerifiers = webhookSecrets.map { StripeWebhookVerifier(secret: $0) }
    }
    let owners = PaymentOwnerRegistry()
    let dispatcher = PaymentDispatcher(
        ledger: SQLPaymentLedger(database: database),
        owners: metrics.counting(owners.forwarders(for: modules.map(\.name))))
    let sessions = SessionService(
        store: SQLSessionStore(database: database),
        signer: await JWTSessionTokenSigner(hasher: hasher),
        hasher: hasher, random: random, clock: clock)
    let passwords = configuration.accounts.passwordHasher(random: random)
    let operators = OperatorService(
        store: SQLOperatorStore(database: database), passwords: passwords, random: random, clock: clock,
        policy: configuration.accountPolicy)
    let web = try await WebFrontEnd(
        configuration: configuration, sessions: sessions,
        operatorAccounts: SQLOperatorAccountStore(database: database), operators: operators, hasher: hasher,
        random: random, clock: clock)
    let devIdentity = configuration.mode == .dev ? await DevIdentityProvider(clock: clock) : nil
    let accounts = makeAccountService(
        configuration: configuration, database: database, sessions: sessions, signIn: signIn, passwords: passwords,
        hasher: hasher, random: random, clock: clock, devIdentity: devIdentity)
    let platform = PlatformServices(
        configuration: configuration, database: database, clock: clock, random: random, logger: logger,
        hasher: hasher, identity: identity, signIn: signIn, payments: metrics.counting(payments),
        sandbox: sandbox,
        stripeVerifiers: stripeVerifiers, dispatcher: dispatcher, places: maps.places, routes: maps.routes,
        devIdentity: devIdentity, passwords: passwords, sessions: sessions, accounts: accounts, web: web,
        cluster: clusterNotices)

    let renderers = ErrorRenderers(
        byPrefix: Dictionary(uniqueKeysWithValues: modules.map { ($0.name, $0.errorRenderer) }))
    let router = Router(context: AppRequestContext.self)
    router.addRequestTracing()
    router.add(middleware: RequestLoggingMiddleware())
    // Outside the error middleware, so an error page is compressed like any other answer.
    if let compression = try CompressionSettings(environment: configuration.environment) {
        router.add(middleware: ResponseCompressionMiddleware(settings: compression))
    }
    router.add(middleware: SecurityHeadersMiddleware())
    router.add(middleware: ErrorMiddleware(renderers: renderers))
    metrics.mount(on: router)
    router.add(
        middleware: ClientAddressMiddleware(trustProxy: configuration.trustProxy, hops: configuration.trustedProxyHops))

    SystemController(
        migrator: migrator, engineName: configuration.storage.engineName, openAPIDocument: try OpenAPIDocument.load(),
        readiness: ReadinessSources(database: database, clock: clock, backups: backups?.status), drain: drain
    ).addRoutes(to: router)
    WebAssetsController(assets: web.assets).addRoutes(to: router)
    HomePageController(web: web).addRoutes(to: router)
    OperationsPagesController(web: web).addRoutes(to: router)
    var jobs: [MaintenanceJob] = []
    var pushSender: (any PushSender)?
    var cancellers: [String: any OrderCanceller] = [:]
    for module in modules {
        let mounted = try await module.mount(on: router, platform: platform)
        jobs += mounted.jobs
        if let owner = mounted.paymentOwner { owners.register(owner) }
        pushSender = pushSender ?? mounted.pushSender
        if let canceller = mounted.orderCanceller { cancellers[canceller.vertical] = canceller }
    }
    try await mountAccounts(on: router, platform: platform, cancellers: cancellers)
    if let token = configuration.adminToken {
        AdminOrdersController(orders: SQLOrderStore(database: database), cancellers: cancellers, token: token)
            .addRoutes(to: router)
        AdminOperatorsController(operators: operators, token: token).addRoutes(to: router)
    }
    let webhookEvents = SQLWebhookEventLog(database: database)
    PaymentWebhookController(
        dispatcher: dispatcher, payments: payments, stripeVerifiers: stripeVerifiers, events: webhookEvents,
        clock: clock, recorder: metrics.recorder
    ).addRoutes(to: router)
    // Rate events older than the longest window (a day), and webhook ids older than a week (Stripe
    // retries for three days) are of no more use.
    jobs.append(
        MaintenanceJob("rate and webhook event sweeping") {
            try await identity.sweepRateEvents(before: clock.now.addingTimeInterval(-86_400))
            try await webhookEvents.sweep(receivedBefore: clock.now.addingTimeInterval(-7 * 86_400))
        })
    let devOutbox = DevOutbox(store: outbox, clock: clock, logger: logger)
    let deliverer = NotificationDeliverer(
        outbox: SQLNotificationQueue(database: database),
        email: try emailSender(configuration, devOutbox: devOutbox, logger: logger),
        sms: smsSender ?? messageSMSSender(configuration, devOutbox: devOutbox, logger: logger),
        push: pushSender ?? devOutbox, clock: clock)
    jobs.append(MaintenanceJob("notification delivery") { try await deliverer.deliverDue() })
    // Every vertical's lapsed holds give their units back here, once, whichever instance runs it.
    let holdStore = SQLHoldStore(database: database)
    jobs.append(
        MaintenanceJob("hold expiry") {
            metrics.recorder.holdsLapsed(try await holdStore.expireLapsedHolds(now: clock.now, limit: 500).count)
        })
    // Refunds the lifecycle owes (written with the transition that owes them) are paid here, each
    // under its own key and backoff, whichever vertical's order they belong to.
    let refunds = OrderLifecycle(
        store: SQLOrderLifecycleStore(database: database, rows: []), holds: holdStore, payments: payments,
        clock: clock, random: random)
    jobs.append(MaintenanceJob("refunds owed") { _ = try await refunds.settleOwedRefunds() })
    // Ended sessions and lapsed email tokens are kept a day (for support questions), then go.
    let sessionRows = SQLSessionStore(database: database)
    jobs.append(
        MaintenanceJob("session sweeping") {
            try await sessionRows.sweep(endedBefore: clock.now.addingTimeInterval(-86_400))
        })
    jobs.append(try .retention(database: database, environment: configuration.environment, clock: clock))
    let maintenance = MaintenanceService(
        jobs: jobs, interval: .seconds(configuration.workerInterval), logger: logger)
    if configuration.mode == .dev {
        DevOutboxController(outbox: outbox).addRoutes(to: router)
        SandboxCheckoutController(
            sandbox: sandbox, dispatcher: dispatcher, recorder: metrics.recorder, strings: web.strings
        ).addRoutes(to: router)
    }
    // Last, so it wraps only the not-found responder: a known path with another method is 405.
    router.add(
        middleware: MethodNotAllowedMiddleware(
            routes: router.routes.map { ($0.path, $0.method) }, renderers: renderers))
    return Assembly(
        router: router, database: database, logger: logger, maintenance: maintenance, metrics: metrics,
        renderers: renderers, clusterNotices: clusterNotices.map(ClusterNoticesService.init),
        scheduledBackups: backups.map { backups in
            MaintenanceService(
                jobs: [MaintenanceJob("scheduled backup") { await backups.runIfDue() }],
                interval: .seconds(configuration.workerInterval), logger: logger)
        })
}

/// The production secret comes from the environment; dev generates one on first start and
/// keeps it in the database, so sessions survive restarts and every instance agrees on it.
private func resolveSecret(_ configuration: ServerConfiguration, database: any SQLDatabase) async throws -> String {
    if let secret = configuration.secret { return secret }
    return try await SettingsStore(database: database).value(for: "dev-secret") { Randomness.token(byteCount: 48) }
}

private func codeAuthority(
    _ configuration: ServerConfiguration, outbox: any OutboxStore, clock: any TimeSource, logger: Logger
) throws -> CodeAuthority {
    switch configuration.sms {
    case .devOutbox:
        return .local(DevOutbox(store: outbox, clock: clock, logger: logger))
    case .twilioMessages(let account, let token, let from):
        return .local(
            TwilioMessagesSender(
                credentials: TwilioCredentials(accountSID: account, authToken: token), from: from, logger: logger))
    case .twilioVerify(let account, let token, let service):
        return .remote(
            try TwilioVerifyClient(
                credentials: TwilioCredentials(accountSID: account, authToken: token), serviceSID: service,
                logger: logger))
    }
}

/// Google when a key is configured, the embedded gazetteer and estimator otherwise; routes are
/// cached either way.
private func mapsProviders(_ configuration: ServerConfiguration, clock: any TimeSource, logger: Logger) throws -> (
    places: any PlacesProvider, routes: any RouteProvider
) {
    if let key = configuration.googleMapsAPIKey {
        let mapsKey = GoogleMapsKey(key)
        return (
            CachedPlacesProvider(upstream: GooglePlacesClient(key: mapsKey, logger: logger), clock: clock),
            CachedRouteProvider(upstream: GoogleRoutesClient(key: mapsKey, clock: clock, logger: logger), clock: clock)
        )
    }
    return (try Gazetteer.shared(), CachedRouteProvider(upstream: OfflineRouteEstimator(), clock: clock))
}

private func emailSender(_ configuration: ServerConfiguration, devOutbox: DevOutbox, logger: Logger) throws
    -> any EmailSender
{
    switch configuration.email {
    case .devOutbox: devOutbox
    case .smtp(let url): try SMTPEmailSender(smtpURL: url, logger: logger)
    case .postmark(let token, let from): PostmarkEmailSender(serverToken: token, from: from, logger: logger)
    }
}

/// Booking texts for customers without email go by SMS: through Twilio's Messages API when it
/// is configured; with Verify (which only sends codes) or in dev, through the dev outbox.
private func messageSMSSender(_ configuration: ServerConfiguration, devOutbox: DevOutbox, logger: Logger)
    -> any SMSSender
{
    switch configuration.sms {
    case .twilioMessages(let account, let token, let from):
        TwilioMessagesSender(
            credentials: TwilioCredentials(accountSID: account, authToken: token), from: from, logger: logger)
    case .devOutbox, .twilioVerify: devOutbox
    }
}
