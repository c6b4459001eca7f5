import ConciergeCore
import Hummingbird
import Logging
import NIOCore
import Prometheus

/// GET /metrics: the application's own metrics, the gauges counted for this scrape and the
/// process's swift-metrics backend (database and provider metrics), in Prometheus text format.
struct MetricsExposition: Sendable {
    let recorder: MetricsRecorder
    let census: MetricsCensusGauges

    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    func response() async -> Response {
        var bytes: [UInt8] = []
        recorder.registry.emit(into: &bytes)
        await census.registry().emit(into: &bytes)
        MetricsBackend.registry.emit(into: &bytes)
        return Response(
            status: .ok, headers: [.contentType: Self.contentType, .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// On the main port: only with `Authorization: Bearer <CONCIERGE_METRICS_TOKEN>`.
    func addRoute(to router: Router<AppRequestContext>, token: String) {
        router.get("metrics") { request, _ in
            guard let given = SessionMiddleware.bearerToken(request.headers[.authorization]),
                SecretHasher.constantTimeEquals(given, token)
            else {
                throw ConciergeError(
                    .unauthorized, code: "metrics_unauthorized",
                    message: "/metrics needs the metrics token (CONCIERGE_METRICS_TOKEN) as a bearer token.")
            }
            return await response()
        }
    }

    /// On a port of its own (CONCIERGE_METRICS_PORT), which only Prometheus reaches: no token,
    /// and nothing but /metrics.
    func separateServer(host: String, port: Int, logger: Logger) -> some ApplicationProtocol {
        let router = Router()
        router.get("metrics") { _, _ in await response() }
        return Application(
            router: router, configuration: .init(address: .hostname(host, port: port), serverName: "Concierge"),
            logger: logger)
    }
}
