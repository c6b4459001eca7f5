import ConciergeCore
import Hummingbird

/// Answers 429 with `Retry-After` when the client's network (an IPv4 address, an IPv6 /64) has
/// used its allowance of the routes this wraps, counted across instances (`NetworkRateLimiter`).
struct NetworkRateLimitMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let limiter: NetworkRateLimiter

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        try await limiter.admit(network: ClientNetwork.key(for: context.clientIP))
        return try await next(request, context)
    }
}
