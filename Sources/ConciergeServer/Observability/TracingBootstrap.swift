public import Foundation
public import Logging
import OTel
public import ServiceLifecycle
import Tracing

/// Traces go to an OpenTelemetry collector over OTLP/HTTP when `OTEL_EXPORTER_OTLP_ENDPOINT` (or
/// `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set; swift-otel reads the other standard `OTEL_*`
/// variables itself (protocol, headers, sampler, batch delay, service name). Only tracing is
/// taken from swift-otel: metrics go to Prometheus and logs to our own handler.
public enum TracingSetup {
    /// Bootstraps the process's tracer and returns the service that exports its spans (to run
    /// next to the application), or nil when no endpoint is set: the tracer stays the no-op one.
    public static func bootstrap(environment: [String: String] = ProcessInfo.processInfo.environment) throws
        -> (any Service)?
    {
        guard isRequested(environment) else { return nil }
        var configuration = OTel.Configuration.default
        configuration.serviceName = "concierge"
        // swift-otel's own messages go through our log handler (JSON lines stay JSON), from
        // warnings up: at info it prints each OTEL_* variable's value, headers (credentials)
        // included. OTEL_LOG_LEVEL still overrides.
        configuration.diagnosticLogger = .custom(Logger(label: "swift-otel"))
        configuration.diagnosticLogLevel = .warning
        configuration.logs.enabled = false
        configuration.metrics.enabled = false
        let backend = try OTel.makeTracingBackend(configuration: configuration)
        InstrumentationSystem.bootstrap(backend.factory)
        return backend.service
    }

    static func isRequested(_ environment: [String: String]) -> Bool {
        if environment["OTEL_SDK_DISABLED"]?.lowercased() == "true" { return false }
        if environment["OTEL_TRACES_EXPORTER"]?.lowercased() == "none" { return false }
        return ["OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"].contains {
            !(environment[$0] ?? "").isEmpty
        }
    }

    /// Runs the application until SIGTERM or SIGINT, with the span exporter beside it when
    /// tracing is on. The application stops first (its requests finish), then the exporter
    /// sends what is left.
    public static func run(_ application: some Service, exporter: (any Service)?, logger: Logger) async throws {
        guard let exporter else {
            try await ServiceGroup(
                configuration: .init(
                    services: [application], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
            ).run()
            return
        }
        try await ServiceGroup(
            configuration: .init(
                services: [exporter, application], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        ).run()
    }
}
