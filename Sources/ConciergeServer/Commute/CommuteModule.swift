import ConciergeCore
import ConciergeProviders
import ConciergeStore
import Foundation
import Hummingbird

/// The leave-time planner under `/commute`: trips kept on the server, recommendations from a
/// departure-time search over a traffic-aware router, `/predict` for the seed app, observations
/// that teach each trip's bias, and a scheduler that sends "leave in N minutes" and "leave now".
struct CommuteModule: VerticalModule {
    let name = "commute"
    let migrations: MigrationGroup? = .commute
    var configurationVariables: [ConfigurationVariable] { ConfigurationVariable.commute }
    let openAPIFragment = "openapi-commute"
    let errorRenderer: any ErrorRenderer = SuccessFlagErrorRenderer(
        signIn: "Sign in again in the app (your identity provider's ID token or a Concierge session token).")

    func mount(on router: Router<AppRequestContext>, platform: PlatformServices) async throws -> MountedVertical {
        let settings = try CommuteConfiguration(environment: platform.configuration.environment)
        let clock = platform.clock
        let store = SQLCommuteStore(database: platform.database)
        let heuristic = OfflineTravelTimes(timeZone: OfflineTravelTimes.solarZone)
        let lookup = TravelTimeLookup(
            primary: settings.travelProvider(googleKey: platform.configuration.googleMapsAPIKey, clock: clock),
            heuristic: heuristic, clock: clock)
        let planner = LeavePlanner(travel: lookup, weather: settings.weatherProvider(clock: clock), clock: clock)
        let service = CommuteService(
            store: store, planner: planner, calendar: settings.calendar, clock: clock, random: platform.random,
            places: platform.places)
        let auth = try await authenticator(platform)
        let commute = router.group("commute")
        CommuteTripsController(service: service, auth: auth).addRoutes(to: commute)
        CommuteAccountController(service: service, auth: auth).addRoutes(to: commute)
        CommutePagesController(web: platform.web, service: service, places: platform.places, clock: clock)
            .addRoutes(to: platform.web.pages(on: router, "commute"))
        let scheduler = CommuteScheduler(
            service: service, store: store, clock: clock, random: platform.random,
            holder: platform.random.identifier(prefix: "instance"))
        let push = try await settings.pushSender(devices: store, clock: clock)
        return MountedVertical(
            jobs: [
                MaintenanceJob("commute leave-time notices") {
                    let report = try await scheduler.tick()
                    if report.sent > 0 { platform.logger.info("commute: \(report.sent) leave-time notices queued") }
                }
            ], pushSender: push)
    }

    /// The platform's sessions and, when OIDC issuers are configured, their ID tokens.
    private func authenticator(_ platform: PlatformServices) async throws -> CommuteAuthenticator {
        let sessions = platform.sessions
        let configuration = platform.configuration.accounts
        let transport = AsyncHTTPClientTransport()
        let issuers = configuration.oidcIssuers.map { oidc in
            IDTokenIssuer(
                provider: .oidc, issuers: [oidc.issuer], audiences: [oidc.audience],
                keys: JWKSSource(location: oidc.keys, transport: transport, clock: platform.clock))
        }
        let verifier = JWKSIDTokenVerifier(issuers: issuers, dev: nil, clock: platform.clock)
        let accounts = platform.accountService(store: SQLAccountStore(database: platform.database), idTokens: verifier)
        return CommuteAuthenticator(
            sessions: sessions, accounts: accounts, store: SQLCommuteStore(database: platform.database),
            idTokens: issuers.isEmpty ? nil : verifier)
    }
}
