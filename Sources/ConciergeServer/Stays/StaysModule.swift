import ConciergeCore
import ConciergeProviders
import ConciergeStore
import Hummingbird

/// The hotel rooms vertical: the seed's API under `/stays` with its `APIResponse` wrapper,
/// accounts and refreshable sessions from the platform, inventory per room type per night.
struct StaysModule: VerticalModule {
    let name = "stays"
    let migrations: MigrationGroup? = .stays
    var configurationVariables: [ConfigurationVariable] { ConfigurationVariable.stays }
    let openAPIFragment = "openapi-stays"
    let errorRenderer: any ErrorRenderer = StaysErrorRenderer()

    func mount(on router: Router<AppRequestContext>, platform: PlatformServices) async throws -> MountedVertical {
        let configuration = try StaysConfiguration(environment: platform.configuration.environment)
        let sessions = await StaysPlatformAccounts.sessions(platform)
        let accounts = StaysAccountService(
            accounts: await StaysPlatformAccounts.accounts(platform, sessions: sessions),
            sessions: sessions, store: SQLStaysStore(database: platform.database), clock: platform.clock)
        let policy = StayCancellationPolicy(freeHours: configuration.freeCancelHours)
        let stays = StaysService(
            hotel: configuration.hotel, cancellation: policy, store: SQLStaysStore(database: platform.database),
            templates: try StaysTemplates.make(), clock: platform.clock, random: platform.random)
        let wire = StaysWire(hotel: configuration.hotel, policy: policy, publicURL: platform.configuration.publicURL)

        router.add(middleware: StaysRegisterMethodMiddleware())
        let group = router.group("stays").add(middleware: StaysErrorMiddleware())
        StaysAccountController(accounts: accounts, sessions: sessions, wire: wire, clock: platform.clock)
            .addRoutes(to: group)
        StaysRoomsController(stays: stays, sessions: sessions, wire: wire).addRoutes(to: group)
        StaysReservationsController(stays: stays, accounts: accounts, sessions: sessions, wire: wire)
            .addRoutes(to: group)
        StaysImagesController(hotel: configuration.hotel).addRoutes(to: group)
        if let token = platform.configuration.adminToken {
            StaysAdminController(
                desk: StaysFrontDesk(hotel: configuration.hotel, store: SQLStaysStore(database: platform.database)),
                stays: stays, wire: wire, token: token
            ).addRoutes(to: group)
        }
        return MountedVertical(jobs: [
            MaintenanceJob("stays idempotency key pruning") { _ = try await stays.pruneIdempotencyKeys() }
        ])
    }
}
