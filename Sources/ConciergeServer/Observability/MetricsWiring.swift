import ConciergeCore
import ConciergeStore
import Hummingbird
import Logging
import ServiceLifecycle

/// Everything metrics adds to an application, built once by `assemble`: the recorder the
/// counting points share, /metrics as CONCIERGE_METRICS_TOKEN or CONCIERGE_METRICS_PORT says,
/// and the request middleware.
struct MetricsWiring: Sendable {
    let recorder = MetricsRecorder()
    private let exposition: MetricsExposition
    private let exposure: ServerConfiguration.MetricsExposure
    private let host: String
    private let logger: Logger

    init(
        configuration: ServerConfiguration, database: any SQLDatabase, clock: any TimeSource, verticals: [String],
        logger: Logger, backups: BackupStatus? = nil
    ) {
        exposure = configuration.metrics
        host = configuration.host
        self.logger = logger
        exposition = MetricsExposition(
            recorder: recorder,
            census: MetricsCensusGauges(
                census: SQLOperationsCensus(database: database, verticals: verticals), clock: clock,
                smsBudgetPerHour: configuration.signIn.sendsPerHour, logger: logger, backups: backups))
    }

    /// Bootstraps the global metrics system (once per process) when /metrics is on, so the
    /// database and provider decorators, which record through it, show in /metrics. Call it
    /// before they are made: a metric keeps the factory it was made with.
    static func prepareProcess(_ configuration: ServerConfiguration) {
        if configuration.metrics != .off { MetricsBackend.bootstrap() }
    }

    /// Adds the request middleware and, with a token, /metrics. Call it right after the error
    /// middleware: the request middleware then sees errors before they become responses. With
    /// /metrics off nobody can read them, so requests are not measured at all.
    func mount(on router: Router<AppRequestContext>) {
        guard exposure != .off else { return }
        router.add(middleware: MetricsHTTPMiddleware(recorder: recorder))
        if case .bearerToken(let token) = exposure { exposition.addRoute(to: router, token: token) }
    }

    /// The /metrics server of CONCIERGE_METRICS_PORT, run with the application's services.
    var services: [any Service] {
        guard case .separatePort(let port) = exposure else { return [] }
        return [exposition.separateServer(host: host, port: port, logger: logger)]
    }

    /// The payment provider, counting refunds.
    func counting(_ payments: any PaymentProvider) -> any PaymentProvider {
        MetricsPaymentProvider(provider: payments, recorder: recorder)
    }

    /// The payment owners, counting the outcomes they learn.
    func counting(_ owners: [any PaymentOwner]) -> [any PaymentOwner] {
        owners.map { MetricsPaymentOwner(owner: $0, recorder: recorder) }
    }
}
