import ConciergeModels
import HTTPTypes
import Hummingbird

/// A path that exists, asked with a method it does not have, is 405 `method_not_allowed` with
/// `Allow` listing the methods it has (RFC 9110 §15.5.6); a path that does not exist stays 404.
///
/// Added to the router after every route, so it wraps only the router's not-found responder and
/// costs matched requests nothing.
struct MethodNotAllowedMiddleware<Context: RequestContext>: RouterMiddleware {
    private let routes: [(path: RouterPath, method: HTTPRequest.Method)]
    private let renderers: ErrorRenderers

    init(routes: [(path: RouterPath, method: HTTPRequest.Method)], renderers: ErrorRenderers = ErrorRenderers()) {
        self.routes = routes
        self.renderers = renderers
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as any HTTPResponseError where error.status == .notFound {
            let allowed = allowedMethods(path: request.uri.path)
            guard !allowed.isEmpty, !allowed.contains(request.method) else { throw error }
            let names = allowed.map(\.rawValue).sorted().joined(separator: ", ")
            var response = renderers.renderer(for: request.uri.path).response(
                for: ErrorDescription(
                    status: .methodNotAllowed, code: "method_not_allowed",
                    message: "\(request.uri.path.prefix(200)) does not accept \(request.method); it accepts \(names)."))
            response.headers[.allow] = names
            return response
        }
    }

    func allowedMethods(path: String) -> [HTTPRequest.Method] {
        let segments = path.split(separator: "/")
        return routes.filter { Self.matches($0.path, segments) }.map(\.method)
    }

    /// Literal components must be equal, parameters (`:reference`) match any one segment and
    /// `**` matches the rest.
    static func matches(_ route: RouterPath, _ segments: [Substring]) -> Bool {
        var index = 0
        for component in route {
            if component == .recursiveWildcard { return true }
            guard index < segments.count, component ~= segments[index] else { return false }
            index += 1
        }
        return index == segments.count
    }
}
