import Hummingbird
import Logging

/// Counts every request under its route template (`/events/shows/{id}`, never the raw path,
/// so a scanner's random paths all land on `unknown`), with its status and latency; and, on the
/// sign-in and code routes, the sign-ins refused and the codes sent. It sits inside the error
/// middleware, so it sees a thrown error's code before it becomes a response.
struct MetricsHTTPMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let recorder: MetricsRecorder

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            answered(request, context, status: response.status.code, errorCode: nil, since: start)
            return response
        } catch {
            let description = ErrorMiddleware<Context>.describe(error, request: request, logger: Self.silent)
            answered(request, context, status: description.status.code, errorCode: description.code, since: start)
            throw error
        }
    }

    private func answered(
        _ request: Request, _ context: Context, status: Int, errorCode: String?, since start: ContinuousClock.Instant
    ) {
        let elapsed = (ContinuousClock.now - start).components
        let route = Self.route(context.endpointPath)
        recorder.requestAnswered(
            route: route, method: request.method, status: status,
            nanoseconds: elapsed.seconds * 1_000_000_000 + elapsed.attoseconds / 1_000_000_000)
        guard request.method == .post, let purpose = MetricsSignInRoutes.purpose[route] else { return }
        switch purpose {
        case .codeSending where (200..<300).contains(status):
            recorder.smsCodeSent()
        case .signIn(let method) where (400..<500).contains(status):
            // Verticals that render their own errors hand back a response: its status says why.
            recorder.signInFailed(method: method, reason: errorCode ?? "http_\(status)")
        default:
            break
        }
    }

    /// Hummingbird names a matched route by its template; no match is "NotFound" or nothing.
    static func route(_ endpointPath: String?) -> String {
        guard let endpointPath, endpointPath.hasPrefix("/") else { return "unknown" }
        return endpointPath
    }

    /// `describe` logs server errors; the error middleware outside logs them once already.
    private static let silent = Logger(label: "concierge.metrics") { _ in SwiftLogNoOpLogHandler() }
}
