import ArgumentParser
import ConciergeServer
import Hummingbird
import Logging

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Run the HTTP server until SIGTERM or SIGINT; /ready answers 503 for CONCIERGE_DRAIN_SECONDS, then in-flight requests finish."
    )

    @OptionGroup var flags: ServerFlags

    func run() async throws {
        let configuration = try await flags.configuration()
        LogSetup.bootstrap(configuration)
        let spanExporter = try TracingSetup.bootstrap()
        let drain = ShutdownDrain(period: .seconds(configuration.drainSeconds))
        let app = try await buildApplication(configuration: configuration, drain: drain)
        try await TracingSetup.run(app, exporter: spanExporter, drain: drain, logger: Logger(label: "concierge"))
    }
}
