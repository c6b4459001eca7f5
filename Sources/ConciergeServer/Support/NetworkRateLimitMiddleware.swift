import ConciergeCore
import Hummingbird

/// Answers 429 with `Retry-After` when the client's network (an IPv4 address, an IPv6 /64) has
/// used its allowance of the routes this wraps.
struct NetworkRateLimitMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let limiter: NetworkRateLimiter

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        if let wait = limiter.retryAfter(network: ClientNetwork.key(for: context.clientIP)) {
            throw ConciergeError(
                .tooManyRequests(retryAfterSeconds: wait), code: "rate_limited",
                message: "Too many requests from your network. Try again in \(wait) seconds.")
        }
        return try await next(request, context)
    }
}
