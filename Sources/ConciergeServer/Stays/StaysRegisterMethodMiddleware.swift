import ConciergeCore
import HTTPTypes
import Hummingbird

/// `/stays/user/register` is a literal beside `/stays/user/{username}`: the router answers it
/// with the literal's method only, so another method there is 405 with `Allow: POST`. The
/// platform's 405 would match the path against `{username}` as well and list GET and PATCH.
/// Added to the router while the module mounts, it wraps the platform's 405 (added last, so
/// inner) and the not-found responder, never a matched route.
struct StaysRegisterMethodMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    static let path = "/stays/user/register"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError where error.status == .notFound {
            guard request.uri.path == Self.path, request.method != .post else { throw error }
            return Self.methodNotAllowed(request)
        }
        guard response.status == .methodNotAllowed, request.uri.path == Self.path else { return response }
        return Self.methodNotAllowed(request)
    }

    static func methodNotAllowed(_ request: Request) -> Response {
        var response = StaysErrorRenderer().response(
            for: ErrorDescription(
                status: .methodNotAllowed, code: "method_not_allowed",
                message: "\(Self.path) does not accept \(request.method); it accepts POST."))
        response.headers[.allow] = "POST"
        return response
    }
}
