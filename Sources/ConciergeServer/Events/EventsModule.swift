import ConciergeCore
import ConciergeProviders
import ConciergeStore
import Foundation
import Hummingbird

/// The seat-map tickets vertical: the seed's accounts, shows, seats, seat maps, seat checkout,
/// bookings and cancellation under `/events`, on the platform's accounts, holds, orders,
/// payments and outbox, with the seed's error body.
struct EventsModule: VerticalModule {
    let name = "events"
    let migrations: MigrationGroup? = .events
    var configurationVariables: [ConfigurationVariable] { ConfigurationVariable.events }
    let openAPIFragment = "openapi-events"
    let errorRenderer: any ErrorRenderer = SuccessFlagErrorRenderer(
        signIn: "Sign in again with your email and password (POST /events/api/auth/signin) or with Apple or Google.")

    func mount(on router: Router<AppRequestContext>, platform: PlatformServices) async throws -> MountedVertical {
        let policy = try EventsPolicy(configuration: platform.configuration)
        let store = SQLEventsStore(database: platform.database)
        var jobs: [MaintenanceJob] = []
        if platform.configuration.mode == .dev {
            // The demo catalogue, so the app has shows on first start; written once per database.
            // A database not migrated yet (`migrate` still to run) gets it from the worker later.
            let seed: @Sendable () async throws -> Void = {
                try await store.seedIfEmpty(
                    venue: DemoCatalogue.venue, shows: DemoCatalogue.shows(after: platform.clock.now))
            }
            do {
                try await seed()
            } catch {
                platform.logger.warning("events demo catalogue not written yet: \(error)")
                jobs.append(MaintenanceJob("events demo catalogue", run: seed))
            }
        }
        let events = EventsService(
            store: store, holds: SQLHoldStore(database: platform.database),
            orders: SQLOrderStore(database: platform.database), payments: platform.payments,
            orderLimits: SQLOrderLimitStore(database: platform.database),
            lifecycle: SQLOrderLifecycleStore(database: platform.database, rows: [SQLEventsOrderRows()]),
            policy: policy,
            clock: platform.clock, random: platform.random,
            signer: try TicketSigner(
                seed: Data(platform.hasher.hash("events-ticket-signing-key", purpose: "events-tickets").utf8)),
            cluster: platform.cluster)
        let accounts = EventsAccounts(platform: platform)
        // Web orders come back from paying to their page (`EventsCheckoutReturn`); the app's do not.
        let group = router.group("events").add(middleware: EventsCheckoutReturn())
        EventsAuthController(accounts: accounts).addRoutes(to: group)
        EventsShowsController(events: events, sessions: accounts.sessions).addRoutes(to: group)
        EventsCheckoutController(
            events: events, accounts: accounts,
            keys: IdempotentRequests(
                keys: SQLIdempotencyKeys(database: platform.database), clock: platform.clock, what: "seat checkout",
                scope: "events.seat-checkout")
        ).addRoutes(to: group)
        EventsTicketsController(events: events, accounts: accounts).addRoutes(to: group)
        EventsCheckInController(events: events, scannerToken: platform.configuration.adminToken).addRoutes(to: group)
        EventsAdminController(events: events, adminToken: platform.configuration.adminToken).addRoutes(to: group)
        EventsPages(
            web: platform.web, events: events, accounts: accounts, ledger: SQLPaymentLedger(database: platform.database)
        )
        .addRoutes(to: router)
        jobs.append(
            MaintenanceJob("events booking expiry") {
                let expired = try await events.expireLapsedBookings()
                if expired > 0 { platform.logger.info("expired \(expired) unpaid seat orders") }
            })
        return MountedVertical(
            jobs: jobs, paymentOwner: events,
            orderCanceller: EventsOrderCanceller(orders: SQLOrderStore(database: platform.database), events: events))
    }
}
