import ConciergeCore
import ConciergeProviders
import ConciergeStore
import Hummingbird

/// The hotel rooms vertical: the seed's API under `/stays` with its `APIResponse` wrapper,
/// accounts and refreshable sessions from the platform, room-nights as the platform's
/// inventory, prepayment through the platform's holds, orders and payments, and the hotel
/// stored in the database (seeded from the hotel file, changed through the admin API).
struct StaysModule: VerticalModule {
    let name = "stays"
    let migrations: MigrationGroup? = .stays
    var configurationVariables: [ConfigurationVariable] { ConfigurationVariable.stays }
    let openAPIFragment = "openapi-stays"
    let errorRenderer: any ErrorRenderer = StaysErrorRenderer()

    func mount(on router: Router<AppRequestContext>, platform: PlatformServices) async throws -> MountedVertical {
        let configuration = try StaysConfiguration(environment: platform.configuration.environment)
        let database = platform.database
        let store = SQLStaysStore(database: database)
        let hotelStore = SQLStaysHotelStore(database: database)
        var jobs: [MaintenanceJob] = []

        // The stored hotel, or the file (or demo) written as the stored hotel on first start. A
        // database not migrated yet (`migrate` still to run) serves the file until the worker
        // has stored it.
        let seed: @Sendable () async throws -> StoredHotel = {
            try await hotelStore.seed(configuration.hotel, at: platform.clock.now)
        }
        let catalog: StaysHotelCatalog
        do {
            let stored = try await seed()
            catalog = StaysHotelCatalog(store: hotelStore, initial: stored)
            if configuration.hotelFromFile, stored.version > 1 || stored.hotel != configuration.hotel {
                platform.logger.info(
                    "stays: the stored hotel (version \(stored.version)) is served; CONCIERGE_STAYS_HOTEL_PATH seeds only the first start — change the hotel through /stays/admin"
                )
            }
        } catch {
            platform.logger.warning("stays hotel not stored yet: \(error)")
            catalog = StaysHotelCatalog(store: hotelStore, initial: StoredHotel(hotel: configuration.hotel, version: 0))
            jobs.append(MaintenanceJob("stays hotel seed") { catalog.replace(try await seed()) })
        }

        let sessions = StaysPlatformAccounts.sessions(platform)
        let accounts = StaysAccountService(
            accounts: StaysPlatformAccounts.accounts(platform),
            registering: StaysPlatformAccounts.registering(platform),
            sessions: sessions, store: store, clock: platform.clock)
        let policy = StayCancellationPolicy(freeHours: configuration.freeCancelHours)
        var guestLimits = configuration.guestLimits
        guestLimits.orders.perNetworkPerMinute = platform.configuration.ordersPerNetworkPerMinute
        let stays = StaysService(
            hotels: catalog, cancellation: policy, store: store, holds: SQLHoldStore(database: database),
            orders: SQLOrderStore(database: database), payments: platform.payments,
            prepay: StaysService.PrepaySettings(
                holdMinutes: configuration.holdMinutes, publicURL: platform.configuration.publicURL),
            guestLimits: guestLimits, orderLimits: SQLOrderLimitStore(database: database),
            lifecycle: SQLOrderLifecycleStore(database: database, rows: [SQLStaysOrderRows()]),
            templates: try StaysTemplates.make(), clock: platform.clock, random: platform.random)
        let wire = StaysWire(policy: policy, publicURL: platform.configuration.publicURL)

        // On the stays routes only (the payment return among them), not in front of every later
        // vertical's: it sends a checkout begun on the web pages back to them.
        let group = router.group("stays").add(middleware: StaysWebPaymentReturnMiddleware())
        StaysAccountController(
            accounts: accounts, sessions: sessions, phoneCodes: platform.signIn, wire: wire, clock: platform.clock
        )
        .addRoutes(to: group)
        StaysRoomsController(stays: stays, sessions: sessions, wire: wire).addRoutes(to: group)
        StaysReservationsController(stays: stays, accounts: accounts, sessions: sessions, wire: wire)
            .addRoutes(to: group)
        StaysPaymentController(stays: stays, payments: platform.payments, dispatcher: platform.dispatcher, wire: wire)
            .addRoutes(to: group)
        StaysImagesController(hotels: catalog, store: hotelStore).addRoutes(to: group)
        if let token = platform.configuration.adminToken {
            StaysAdminController(
                desk: StaysFrontDesk(store: store), stays: stays,
                admin: StaysHotelAdmin(
                    store: hotelStore, clock: platform.clock, random: platform.random,
                    changed: { catalog.replace($0) }),
                wire: wire, token: token
            ).addRoutes(to: group)
        }
        // The web pages (search, reserve, reservations, sign-in; /ops/stays) on the same services.
        StaysWebPages(
            web: platform.web, stays: stays, accounts: accounts, sessions: sessions,
            providerButtons: SignInProviderButtons(platform: platform), desk: StaysFrontDesk(store: store),
            payments: platform.payments, dispatcher: platform.dispatcher
        ).addRoutes(to: router)
        jobs += [
            MaintenanceJob("stays idempotency key pruning") { _ = try await stays.pruneIdempotencyKeys() },
            MaintenanceJob("stays prepayment expiry") {
                let expired = try await stays.expireLapsedReservations()
                if expired > 0 { platform.logger.info("expired \(expired) unpaid prepaid stays") }
            },
        ]
        return MountedVertical(
            jobs: jobs, paymentOwner: stays,
            orderCanceller: StaysOrderCanceller(
                orders: SQLOrderStore(database: database), reservations: store, accounts: accounts, stays: stays))
    }
}
