import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// Gives every request an id (the caller's `X-Request-Id` when it is sane, else Hummingbird's),
/// puts it in every log line of the request and in the response header, and logs one line per
/// request. Paths are logged without their query: query strings can carry secrets.
struct RequestLoggingMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var context = context
        let requestID = Self.acceptableID(request.headers[.xRequestID]) ?? context.id
        context.logger[metadataKey: "request_id"] = .string(requestID)
        let started = ContinuousClock.now
        do {
            var response = try await next(request, context)
            response.headers[.xRequestID] = requestID
            log(request, status: response.status.code, since: started, logger: context.logger)
            return response
        } catch {
            // Errors are turned into responses further in; whatever still arrives here is
            // logged and answered by the framework.
            log(request, status: 500, since: started, logger: context.logger)
            throw error
        }
    }

    private func log(_ request: Request, status: Int, since started: ContinuousClock.Instant, logger: Logger) {
        let elapsed = started.duration(to: .now)
        // Tenths of a millisecond, formatted by hand (String(format:) goes through NSString).
        let tenths = elapsed.components.seconds * 10_000 + elapsed.components.attoseconds / 100_000_000_000_000
        logger.info(
            "\(request.method) \(request.uri.path) \(status)",
            metadata: ["duration_ms": .string("\(tenths / 10).\(tenths % 10)")])
    }

    static func acceptableID(_ value: String?) -> String? {
        guard let value, (1...64).contains(value.count),
            value.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        else { return nil }
        return value
    }
}
