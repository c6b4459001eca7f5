public import ConciergeCore
public import CoreMetrics
import Foundation
public import Tracing

/// A transport that traces and counts every call of the one it wraps, and remembers each
/// provider's last result.
///
/// Every call gets a client span (a child of the request's span, when tracing is on) named after
/// the provider, and carries that span's `traceparent` to the provider. The metrics are
/// `concierge_provider_requests_total{provider,result}` and
/// `concierge_provider_request_duration_seconds{provider}`. Neither the span nor the registry
/// holds the URL's path or query: some providers take their key in the query.
public struct InstrumentedTransport: ProviderHTTPTransport {
    private let upstream: any ProviderHTTPTransport
    private let instrumentation: ProviderCallInstrumentation

    public init(wrapping upstream: any ProviderHTTPTransport, instrumentation: ProviderCallInstrumentation) {
        self.upstream = upstream
        self.instrumentation = instrumentation
    }

    public func send(_ request: ProviderHTTPRequest, timeout: Duration) async throws -> ProviderHTTPResponse {
        try await instrumentation.measure(request, propagating: true) { try await upstream.send($0, timeout: timeout) }
    }
}

/// Where provider calls are reported: the registry, and the tracer and metrics factory (the
/// process's bootstrapped ones unless a test passes its own).
public struct ProviderCallInstrumentation: Sendable {
    /// What every real transport of this process uses.
    public static let standard = ProviderCallInstrumentation()

    private let registry: ProviderCallRegistry
    private let tracer: (any Tracer)?
    private let metrics: (any MetricsFactory)?
    private let clock: any TimeSource

    public init(
        registry: ProviderCallRegistry = .shared, tracer: (any Tracer)? = nil, metrics: (any MetricsFactory)? = nil,
        clock: any TimeSource = SystemTimeSource()
    ) {
        self.registry = registry
        self.tracer = tracer
        self.metrics = metrics
        self.clock = clock
    }

    /// - Parameter propagating: whether to add the span's `traceparent` to the request; not for
    ///   AsyncHTTPClient, which adds its own (its span is a child of this one), and a second
    ///   `traceparent` header would make the provider discard both.
    func measure(
        _ request: ProviderHTTPRequest, propagating: Bool,
        _ send: (ProviderHTTPRequest) async throws -> ProviderHTTPResponse
    ) async throws -> ProviderHTTPResponse {
        let provider = InstrumentedProviderName.of(url: request.url)
        let tracer = self.tracer ?? InstrumentationSystem.tracer
        let metrics = self.metrics ?? MetricsSystem.factory
        let started = ContinuousClock.now
        return try await tracer.withSpan("\(request.method) \(provider)", ofKind: .client) { span in
            span.attributes["http.request.method"] = request.method
            span.attributes["server.address"] = URLComponents(string: request.url)?.host
            span.attributes["concierge.provider"] = provider
            var request = request
            if propagating { tracer.inject(span.context, into: &request.headers, using: ProviderHeadersInjector()) }
            let outcome: InstrumentedProviderOutcome
            let response: ProviderHTTPResponse
            do {
                response = try await send(request)
                outcome = .answered(status: response.status)
                span.attributes["http.response.status_code"] = response.status
            } catch ProviderTransportError.timedOut {
                outcome = .timedOut
                span.setStatus(SpanStatus(code: .error, message: outcome.shortError))
                report(outcome, provider: provider, since: started, metrics: metrics)
                throw ProviderTransportError.timedOut
            } catch let error as ProviderTransportError {
                outcome = .unreachable
                span.setStatus(SpanStatus(code: .error, message: outcome.shortError))
                report(outcome, provider: provider, since: started, metrics: metrics)
                throw error
            }
            if !outcome.isHealthy { span.setStatus(SpanStatus(code: .error, message: outcome.shortError)) }
            report(outcome, provider: provider, since: started, metrics: metrics)
            return response
        }
    }

    /// Cancellation is the caller's doing, not the provider's: it is neither counted nor remembered.
    private func report(
        _ outcome: InstrumentedProviderOutcome, provider: String, since started: ContinuousClock.Instant,
        metrics: any MetricsFactory
    ) {
        let elapsed = started.duration(to: .now)
        let (seconds, attoseconds) = elapsed.components
        Counter(
            label: "concierge_provider_requests_total",
            dimensions: [("provider", provider), ("result", outcome.resultLabel)], factory: metrics
        ).increment()
        Timer(
            label: "concierge_provider_request_duration_seconds", dimensions: [("provider", provider)], factory: metrics
        )
        .recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        registry.record(.init(provider: provider, outcome: outcome, at: clock.now))
    }
}

/// Adds the propagation headers (W3C `traceparent`, `tracestate`) to an outgoing provider call.
struct ProviderHeadersInjector: Injector {
    func inject(_ value: String, forKey key: String, into headers: inout [(String, String)]) {
        headers.removeAll { $0.0.caseInsensitiveCompare(key) == .orderedSame }
        headers.append((key, value))
    }
}
