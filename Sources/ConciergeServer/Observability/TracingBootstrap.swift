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
        try checkSupported(environment)
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

    /// swift-otel stops the process (`fatalError`) on a gRPC exporter it was built without or a
    /// Jaeger or X-Ray sampler, and fails with a bare "not implemented" on other exporters: such a
    /// setting stops the start with one line instead.
    static func checkSupported(_ environment: [String: String]) throws {
        let protocolName =
            environment["OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"] ?? environment["OTEL_EXPORTER_OTLP_PROTOCOL"] ?? ""
        guard ["", "http/protobuf", "http/json"].contains(protocolName) else {
            throw TracingSetupError(
                "OTEL_EXPORTER_OTLP_PROTOCOL '\(protocolName)' is not supported: traces go over OTLP/HTTP "
                    + "(http/protobuf or http/json)")
        }
        let exporter = environment["OTEL_TRACES_EXPORTER"] ?? ""
        guard ["", "otlp", "none"].contains(exporter) else {
            throw TracingSetupError("OTEL_TRACES_EXPORTER '\(exporter)' is not supported: use otlp (or none)")
        }
        let sampler = environment["OTEL_TRACES_SAMPLER"] ?? ""
        guard !["jaeger_remote", "parentbased_jaeger_remote", "xray"].contains(sampler) else {
            throw TracingSetupError("OTEL_TRACES_SAMPLER '\(sampler)' is not supported by swift-otel")
        }
    }

    static func isRequested(_ environment: [String: String]) -> Bool {
        if environment["OTEL_SDK_DISABLED"]?.lowercased() == "true" { return false }
        if environment["OTEL_TRACES_EXPORTER"]?.lowercased() == "none" { return false }
        return ["OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"].contains {
            !(environment[$0] ?? "").isEmpty
        }
    }

    /// Runs the application until SIGTERM or SIGINT, with the span exporter beside it when
    /// tracing is on. Shutdown goes in reverse order: the drain first (`/ready` answers 503 for
    /// its period, so the load balancer takes the instance out), then the application (its
    /// requests finish), then the exporter sends what is left.
    public static func run(
        _ application: some Service, exporter: (any Service)?, drain: ShutdownDrain? = nil, logger: Logger
    ) async throws {
        let services: [any Service] = [exporter, application, drain].compactMap { $0 }
        try await ServiceGroup(
            configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        ).run()
    }
}

/// An `OTEL_*` setting this server cannot honour; `concierge serve` prints it and exits.
struct TracingSetupError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
