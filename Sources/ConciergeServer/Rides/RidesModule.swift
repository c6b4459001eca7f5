import ConciergeCore
import ConciergeProviders
import ConciergeStore
import Hummingbird

/// The chauffeur rides vertical: SMS sign-in, places, prices per vehicle class and bookings with
/// payment, under `/rides`, with the seed's error body.
struct RidesModule: VerticalModule {
    let name = "rides"
    /// Rides' tables are in the `core` history, which predates modules.
    let migrations: MigrationGroup? = nil
    var configurationVariables: [ConfigurationVariable] { ConfigurationVariable.rides }
    let openAPIFragment = "openapi-rides"
    let errorRenderer: any ErrorRenderer = SuccessFlagErrorRenderer(signIn: "Sign in again with your phone number.")

    func mount(on router: Router<AppRequestContext>, platform: PlatformServices) async throws -> MountedVertical {
        let configuration = platform.configuration
        let rides = router.group("rides")
        RidesSignInController(signIn: platform.signIn, profiles: ProfileService(store: platform.identity))
            .addRoutes(to: rides)
        // Places and pricing need no sign-in and may cost a provider call each: limited per
        // client network, across instances (CONCIERGE_PUBLIC_READS_PER_MINUTE; 0 turns the limit off).
        let publicReads = rides.group()
        if configuration.publicReadsPerMinute > 0 {
            publicReads.add(
                middleware: NetworkRateLimitMiddleware(
                    limiter: NetworkRateLimiter(
                        perMinute: configuration.publicReadsPerMinute,
                        store: SQLOrderLimitStore(database: platform.database), clock: platform.clock,
                        random: platform.random)))
        }
        RidesPlacesController(places: platform.places).addRoutes(to: publicReads)
        let pricing = RidePricingService(
            places: platform.places, routes: platform.routes,
            calculator: PriceCalculator(tariff: configuration.tariff), clock: platform.clock)
        RidesPricingController(pricing: pricing).addRoutes(to: publicReads)

        let publicURL = configuration.publicURL
        let identity = platform.identity
        let templates = try MustacheMessageTemplates.bundled()
        // Payments, expiry, cancellations and refunds of rides are the platform's lifecycle's.
        let lifecycle = OrderLifecycle(
            store: SQLOrderLifecycleStore(database: platform.database, rows: [SQLRidesOrderRows()]),
            holds: SQLHoldStore(database: platform.database), payments: platform.payments, clock: platform.clock,
            random: platform.random)
        // One service per return page: the app's checkout comes back to the API's return page,
        // the web's to its own confirmation page. Both share every store and rule.
        func bookingService(returnURL: @escaping @Sendable (Booking) -> String) -> BookingService {
            BookingService(
                store: SQLBookingStore(database: platform.database),
                idempotencyKeys: SQLIdempotencyKeys(database: platform.database),
                orders: SQLOrderStore(database: platform.database), pricing: pricing, tariff: configuration.tariff,
                payments: platform.payments, rules: configuration.bookingRules,
                limits: OrderLimitChecker(
                    limits: OrderLimits(
                        maxOpenUnpaid: configuration.bookingRules.maxUnpaidBookings,
                        maxPerHour: configuration.bookingRules.maxBookingsPerHour,
                        perNetworkPerMinute: configuration.ordersPerNetworkPerMinute),
                    store: SQLOrderLimitStore(database: platform.database), clock: platform.clock,
                    random: platform.random),
                clock: platform.clock,
                random: platform.random, returnURL: returnURL,
                webhookURL: "\(publicURL)/payments/\(platform.payments.name)/webhook",
                contact: { try await identity.customer(id: $0) }, templates: templates, lifecycle: lifecycle)
        }
        let bookings = bookingService {
            "\(publicURL)/rides/booking-confirmed?ref=\($0.reference)&t=\($0.publicSecret)"
        }
        RidesBookingController(bookings: bookings, signIn: platform.signIn).addRoutes(to: rides)
        BookingReturnPageController(bookings: bookings, payments: platform.payments, dispatcher: platform.dispatcher)
            .addRoutes(to: rides)
        if let token = configuration.adminToken {
            AdminBookingsController(bookings: bookings, token: token).addRoutes(to: router)
        }
        RidesWebPages(
            web: platform.web, signIn: platform.signIn, places: platform.places, pricing: pricing,
            bookings: bookings,
            webBookings: bookingService { "\(publicURL)/rides/trips/\($0.reference)?t=\($0.publicSecret)" },
            payments: platform.payments, dispatcher: platform.dispatcher, rules: configuration.bookingRules,
            clock: platform.clock, random: platform.random
        ).addRoutes(to: router)
        return MountedVertical(
            jobs: [
                MaintenanceJob("ride booking expiry") {
                    let expired = try await bookings.expireLapsedBookings()
                    if expired > 0 { platform.logger.info("expired \(expired) unpaid bookings") }
                },
                MaintenanceJob("idempotency key pruning") { try await bookings.pruneIdempotencyKeys() },
            ],
            paymentOwner: bookings,
            orderCanceller: RidesOrderCanceller(
                orders: SQLOrderStore(database: platform.database), identity: identity, bookings: bookings))
    }
}
