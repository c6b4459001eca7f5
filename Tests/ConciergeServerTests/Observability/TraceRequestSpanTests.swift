import ConciergeTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import InMemoryTracing
import Testing
import Tracing

@testable import ConciergeServer

/// The request span: named by method and route template, continuing the caller's context,
/// carrying the request id; added only when a tracer is bootstrapped.
@Suite struct TraceRequestSpanTests {
    @Test func theSpanIsNamedByTheRouteTemplateAndContinuesTheCaller() async throws {
        let tracer = InMemoryTracer()
        let router = Router(context: AppRequestContext.self)
        router.addRequestTracing(tracer: tracer)
        router.add(middleware: RequestLoggingMiddleware())
        router.get("health") { _, _ in "ok" }
        router.get("things/:id") { _, context -> String in
            // A span started here (a transaction, a provider call) is the request span's child.
            tracer.withSpan("inner") { _ in context.parameters.get("id") ?? "" }
        }
        try await Application(router: router).test(.router) { client in
            let answer = try await client.execute(
                uri: "/things/42?token=secret", method: .get,
                headers: [
                    .init(InMemoryTracer.traceIDKey)!: "trace-from-caller", .init(InMemoryTracer.spanIDKey)!: "caller",
                    .init("X-Request-Id")!: "req-42",
                ])
            #expect(answer.status == .ok)
            _ = try await client.execute(uri: "/nowhere", method: .post)
            _ = try await client.execute(uri: "/health", method: .get)
        }
        let request = try #require(tracer.finishedSpans.first { $0.operationName == "GET /things/{id}" })
        #expect(request.kind == .server)
        #expect(request.traceID == "trace-from-caller")
        #expect(request.parentSpanID == "caller")
        #expect(request.attributes["http.route"]?.toSpanAttribute() == .string("/things/{id}"))
        #expect(request.attributes["http.response.status_code"]?.toSpanAttribute() == .int64(200))
        #expect(request.attributes["concierge.request_id"]?.toSpanAttribute() == .string("req-42"))
        // The raw path and its query are not recorded.
        #expect(!"\(request.attributes)".contains("secret") && !"\(request.attributes)".contains("/things/42"))
        let inner = try #require(tracer.finishedSpans.first { $0.operationName == "inner" })
        #expect(inner.parentSpanID == request.spanID)
        let unmatched = try #require(tracer.finishedSpans.first { $0.operationName.hasPrefix("POST") })
        #expect(unmatched.operationName == "POST unknown")
        // Probes are not traced.
        #expect(tracer.finishedSpans.count == 3)
    }

    @Test func tracingIsOnlyRequestedByAnOTLPEndpoint() {
        #expect(!TracingSetup.isRequested([:]))
        #expect(!TracingSetup.isRequested(["OTEL_EXPORTER_OTLP_ENDPOINT": ""]))
        #expect(TracingSetup.isRequested(["OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"]))
        #expect(TracingSetup.isRequested(["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://collector:4318/v1/traces"]))
        #expect(
            !TracingSetup.isRequested([
                "OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318", "OTEL_SDK_DISABLED": "true",
            ]))
        #expect(
            !TracingSetup.isRequested([
                "OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318", "OTEL_TRACES_EXPORTER": "none",
            ]))
    }

    @Test func settingsSwiftOTelWouldCrashOnAreRefusedWithOneLine() throws {
        let endpoint = ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"]
        for supported in [
            [:], ["OTEL_EXPORTER_OTLP_PROTOCOL": "http/json"], ["OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "http/protobuf"],
            ["OTEL_TRACES_EXPORTER": "otlp"], ["OTEL_TRACES_SAMPLER": "parentbased_traceidratio"],
        ] {
            try TracingSetup.checkSupported(endpoint.merging(supported) { $1 })
        }
        for (unsupported, named) in [
            (["OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"], "OTEL_EXPORTER_OTLP_PROTOCOL 'grpc'"),
            (["OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "grpc"], "OTEL_EXPORTER_OTLP_PROTOCOL 'grpc'"),
            (["OTEL_TRACES_EXPORTER": "zipkin"], "OTEL_TRACES_EXPORTER 'zipkin'"),
            (["OTEL_TRACES_SAMPLER": "parentbased_jaeger_remote"], "OTEL_TRACES_SAMPLER 'parentbased_jaeger_remote'"),
        ] {
            let error = #expect(throws: TracingSetupError.self) {
                try TracingSetup.checkSupported(endpoint.merging(unsupported) { $1 })
            }
            #expect(error?.description.hasPrefix(named) == true, "\(String(describing: error))")
        }
    }

    @Test func withoutATracerTheRouterGetsNoTracingMiddleware() async throws {
        let plain = Router(context: AppRequestContext.self)
        plain.get("x") { _, _ in "x" }
        let traced = Router(context: AppRequestContext.self)
        traced.addRequestTracing(tracer: NoOpTracer())
        traced.get("x") { _, _ in "x" }
        // The same responder chain: no middleware was added.
        #expect(
            String(describing: type(of: traced.buildResponder()))
                == String(describing: type(of: plain.buildResponder())))
        #expect(String(reflecting: traced.buildResponder()) == String(reflecting: plain.buildResponder()))
        // Which the comparison would see: with a tracer the chain differs.
        let withTracer = Router(context: AppRequestContext.self)
        withTracer.addRequestTracing(tracer: InMemoryTracer())
        withTracer.get("x") { _, _ in "x" }
        #expect(String(reflecting: withTracer.buildResponder()) != String(reflecting: plain.buildResponder()))
    }
}
