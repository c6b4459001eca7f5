import ConciergeCore
import ConciergeProviders
import Foundation
import InMemoryTracing
import MetricsTestKit
import Testing
import Tracing

/// The provider transport decorator: a client span per call under the request's span, its
/// context carried to the provider, the provider metrics by short name and result, and the last
/// result per provider for /ready. The upstream is a recording transport (the seam adapters use).
@Suite struct TraceProviderTransportTests {
    /// Answers every call with `status` (or throws `failure`), and keeps what it was sent.
    final class RecordingTransport: ProviderHTTPTransport, @unchecked Sendable {
        let status: Int
        let failure: ProviderTransportError?
        private let lock = NSLock()
        private var requests: [ProviderHTTPRequest] = []

        init(status: Int = 200, failure: ProviderTransportError? = nil) {
            self.status = status
            self.failure = failure
        }

        var sent: [ProviderHTTPRequest] { lock.withLock { requests } }

        func send(_ request: ProviderHTTPRequest, timeout: Duration) async throws -> ProviderHTTPResponse {
            lock.withLock { requests.append(request) }
            if let failure { throw failure }
            return ProviderHTTPResponse(status: status)
        }
    }

    struct Setup {
        let tracer = InMemoryTracer()
        let metrics = TestMetrics()
        let registry = ProviderCallRegistry()
        let clock = ManualTimeSource()

        func transport(_ upstream: RecordingTransport) -> InstrumentedTransport {
            InstrumentedTransport(
                wrapping: upstream,
                instrumentation: ProviderCallInstrumentation(
                    registry: registry, tracer: tracer, metrics: metrics, clock: clock))
        }
    }

    @Test func aCallIsAClientSpanUnderTheRequestAndCarriesItsContextToTheProvider() async throws {
        let setup = Setup()
        let upstream = RecordingTransport()
        let request = setup.tracer.startSpan("POST /rides/app-book", ofKind: .server)
        _ = try await ServiceContext.$current.withValue(request.context) {
            try await setup.transport(upstream).send(
                ProviderHTTPRequest(method: "POST", url: "https://api.stripe.com/v1/checkout/sessions?key=secret"),
                timeout: .seconds(5))
        }
        request.end()

        let call = try #require(setup.tracer.finishedSpans.first { $0.operationName == "POST stripe" })
        #expect(call.kind == .client)
        #expect(call.traceID == request.context.inMemorySpanContext?.traceID)
        #expect(call.parentSpanID == request.context.inMemorySpanContext?.spanID)
        #expect(call.attributes["server.address"]?.toSpanAttribute() == .string("api.stripe.com"))
        // Neither path nor query (a key may ride in the query) is on the span.
        #expect(!"\(call.attributes)".contains("secret"))
        // The provider gets the call's span as its parent.
        let sent = try #require(upstream.sent.first)
        #expect(sent.header(InMemoryTracer.traceIDKey) == call.traceID)
        #expect(sent.header(InMemoryTracer.spanIDKey) == call.spanID)
    }

    @Test func callsAreCountedAndTimedByProviderAndResult() async throws {
        let setup = Setup()
        let ok = setup.transport(RecordingTransport(status: 200))
        let failing = setup.transport(RecordingTransport(status: 503))
        for _ in 0..<2 {
            _ = try await ok.send(
                .init(method: "GET", url: "https://places.googleapis.com/v1/places"), timeout: .seconds(1))
        }
        _ = try await failing.send(.init(method: "POST", url: "https://verify.twilio.com/v2/x"), timeout: .seconds(1))

        let label = "concierge_provider_requests_total"
        #expect(try setup.metrics.expectCounter(label, [("provider", "google"), ("result", "ok")]).totalValue == 2)
        #expect(
            try setup.metrics.expectCounter(label, [("provider", "twilio"), ("result", "http_error")]).totalValue == 1)
        let timer = try setup.metrics.expectTimer(
            "concierge_provider_request_duration_seconds", [("provider", "google")])
        #expect(timer.values.count == 2)
    }

    @Test(
        arguments: [
            (200, true, nil), (402, true, nil), (404, true, nil), (401, false, "HTTP 401"), (429, false, "HTTP 429"),
            (503, false, "HTTP 503"),
        ] as [(Int, Bool, String?)])
    func anAnswersStatusSaysWhetherTheProviderIsHealthy(status: Int, ok: Bool, error: String?) async throws {
        let setup = Setup()
        setup.clock.advance(by: 120)
        _ = try await setup.transport(RecordingTransport(status: status)).send(
            .init(method: "POST", url: "https://api.mollie.com/v2/payments"), timeout: .seconds(1))
        #expect(setup.registry.lastCalls == [.init(provider: "mollie", ok: ok, at: setup.clock.now, error: error)])
        let span = try #require(setup.tracer.finishedSpans.first)
        #expect((span.status?.code == .error) == !ok)
    }

    @Test func noAnswerIsCountedAsTimeoutOrUnreachableAndStillThrown() async throws {
        let setup = Setup()
        await #expect(throws: ProviderTransportError.timedOut) {
            _ = try await setup.transport(RecordingTransport(failure: .timedOut)).send(
                .init(method: "POST", url: "https://api.postmarkapp.com/email"), timeout: .seconds(1))
        }
        await #expect(throws: ProviderTransportError.unreachable("refused")) {
            _ = try await setup.transport(RecordingTransport(failure: .unreachable("refused"))).send(
                .init(method: "GET", url: "https://api.weatherbit.io/v2.0/forecast/hourly?key=k"), timeout: .seconds(1))
        }
        let label = "concierge_provider_requests_total"
        #expect(
            try setup.metrics.expectCounter(label, [("provider", "postmark"), ("result", "timeout")]).totalValue == 1)
        #expect(
            try setup.metrics.expectCounter(label, [("provider", "weatherbit"), ("result", "unreachable")]).totalValue
                == 1)
        #expect(
            setup.registry.lastCalls.map { "\($0.provider) \($0.ok) \($0.error ?? "")" } == [
                "postmark false timed out", "weatherbit false unreachable",
            ])
    }

    @Test func providersAreNamedByTheirShortNameAndOthersByHost() async throws {
        let setup = Setup()
        let urls = [
            "https://api.stripe.com/v1/x", "https://api.twilio.com/2010/x", "https://routes.googleapis.com/x",
            "https://api.open-meteo.com/v1/forecast", "https://api.mapbox.com/directions",
            "https://api.sandbox.push.apple.com/3/device/abc", "https://jwks.example.org/certs",
        ]
        for url in urls {
            _ = try await setup.transport(RecordingTransport()).send(
                .init(method: "GET", url: url), timeout: .seconds(1))
        }
        #expect(
            setup.registry.lastCalls.map(\.provider) == [
                "apns", "google", "jwks.example.org", "mapbox", "open-meteo", "stripe", "twilio",
            ])
    }
}
