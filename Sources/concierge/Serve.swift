import ArgumentParser
import ConciergeServer
import Hummingbird
import Logging

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the HTTP server until SIGTERM or SIGINT; in-flight requests finish first.")

    @OptionGroup var flags: ServerFlags

    func run() async throws {
        let configuration = try await flags.configuration()
        LogSetup.bootstrap(configuration)
        let spanExporter = try TracingSetup.bootstrap()
        let app = try await buildApplication(configuration: configuration)
        try await TracingSetup.run(app, exporter: spanExporter, logger: Logger(label: "concierge"))
    }
}
