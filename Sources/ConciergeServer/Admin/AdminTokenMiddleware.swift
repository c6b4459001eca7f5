import ConciergeCore
import Hummingbird

/// Admits requests that carry `Authorization: Bearer <CONCIERGE_ADMIN_TOKEN>`.
struct AdminTokenMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let token: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard let given = SessionMiddleware.bearerToken(request.headers[.authorization]),
            SecretHasher.constantTimeEquals(given, token)
        else {
            throw ConciergeError(
                .unauthorized, code: "admin_unauthorized",
                message: "This admin endpoint needs the admin token as a bearer token.")
        }
        return try await next(request, context)
    }
}
