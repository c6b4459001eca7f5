import HTTPTypes
import Hummingbird
import Tracing

/// One server span per request, named by the method and the route template
/// (`GET /events/shows/{id}`, never the raw path), a child of the caller's `traceparent` when it
/// sent one. The database and provider spans of the request hang below it.
///
/// Hummingbird's `TracingMiddleware` is not used: it records the query string, and query strings
/// can carry secrets. This one records the method, the route, the status and the request id
/// (the `request_id` of the request's log lines).
struct TracingRequestMiddleware<Context: RequestContext>: RouterMiddleware {
    let tracer: any Tracer

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        // Probes and scrapes come every few seconds from every load balancer and Prometheus:
        // a trace each would bury the requests worth reading.
        if untracedPaths.contains(request.uri.path) { return try await next(request, context) }
        var parent = ServiceContext.current ?? .topLevel
        tracer.extract(request.headers, into: &parent, using: RequestHeadersExtractor())
        let method = request.method.rawValue
        return try await tracer.withSpan(method, context: parent, ofKind: .server) { span in
            // A span the sampler left out is never exported: its attributes would be work for nothing.
            guard span.isRecording else { return try await next(request, context) }
            span.attributes["http.request.method"] = method
            span.attributes["concierge.request_id"] =
                RequestLoggingMiddleware<Context>.acceptableID(request.headers[.xRequestID]) ?? context.id
            do {
                let response = try await next(request, context)
                name(span, method: method, route: context.endpointPath, status: Int(response.status.code))
                return response
            } catch {
                // Errors are rendered further in; what still arrives here is answered 500.
                name(span, method: method, route: context.endpointPath, status: 500)
                throw error
            }
        }
    }

    private func name(_ span: any Span, method: String, route: String?, status: Int) {
        // As the request metrics name it: no match is "NotFound" (or nothing) in Hummingbird.
        let route = route.flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "unknown"
        span.operationName = "\(method) \(route)"
        span.attributes["http.route"] = route
        span.attributes["http.response.status_code"] = status
        if status >= 500 { span.setStatus(SpanStatus(code: .error)) }
    }
}

/// Outside the generic middleware: a generic type cannot keep a static constant.
private let untracedPaths: Set<String> = ["/health", "/ready", "/metrics"]

/// Reads `traceparent` and `tracestate` from the request.
struct RequestHeadersExtractor: Extractor {
    func extract(key: String, from headers: HTTPFields) -> String? {
        HTTPField.Name(key).flatMap { headers[$0] }
    }
}

extension Router where Context == AppRequestContext {
    /// Adds request spans when a tracer is bootstrapped (`OTEL_EXPORTER_OTLP_ENDPOINT` set);
    /// without one the router is left as it is, so tracing off costs nothing per request.
    /// Added first, so the span covers the whole request and every log line carries its trace id.
    func addRequestTracing(tracer: any Tracer = InstrumentationSystem.tracer) {
        guard !(tracer is NoOpTracer) else { return }
        add(middleware: TracingRequestMiddleware(tracer: tracer))
    }
}
