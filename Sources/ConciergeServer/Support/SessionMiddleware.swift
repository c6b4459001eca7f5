import ConciergeCore
import Foundation
import Hummingbird

/// Resolves `Authorization: Bearer <token>` into a session, or answers 401 `session_expired`.
struct SessionMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let signIn: SignInService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var context = context
        context.session = try await signIn.authenticate(token: Self.bearerToken(request.headers[.authorization]))
        return try await next(request, context)
    }

    static func bearerToken(_ header: String?) -> String? {
        guard let header else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return parts[1].trimmed
    }
}

/// Resolves `Authorization: Bearer <token>` into a platform session of any kind (an opaque
/// rides token or a JWT access token), or answers 401 `session_expired`.
struct PlatformSessionMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let sessions: SessionService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var context = context
        context.platformSession = try await sessions.authenticate(
            token: SessionMiddleware.bearerToken(request.headers[.authorization]))
        return try await next(request, context)
    }
}
