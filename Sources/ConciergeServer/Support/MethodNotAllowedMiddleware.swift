import ConciergeModels
import HTTPTypes
// The router's own trie, so that a path resolves to the route the router would match: a literal
// (`/stays/user/register`) wins over a parameter (`/stays/user/{username}`) beside it.
@_spi(Internal) import Hummingbird

/// A path that exists, asked with a method it does not have, is 405 `method_not_allowed` with
/// `Allow` listing the methods it has (RFC 9110 §15.5.6); a path that does not exist stays 404.
///
/// The methods listed are those of the route the router matches for the path, resolved with the
/// router's own trie, so a literal path beside a parameter (`/stays/user/register` beside
/// `/stays/user/{username}`) lists only its own.
///
/// Added to the router after every route, so it wraps only the router's not-found responder and
/// costs matched requests nothing.
struct MethodNotAllowedMiddleware<Context: RequestContext>: RouterMiddleware {
    private let routes: RouterTrie<[HTTPRequest.Method]>
    private let renderers: ErrorRenderers

    init(routes: [(path: RouterPath, method: HTTPRequest.Method)], renderers: ErrorRenderers = ErrorRenderers()) {
        var methods: [String: (path: RouterPath, methods: [HTTPRequest.Method])] = [:]
        for route in routes {
            methods[route.path.description, default: (route.path, [])].methods.append(route.method)
        }
        let builder = RouterPathTrieBuilder<[HTTPRequest.Method]>()
        for entry in methods.values { builder.addEntry(entry.path, value: entry.methods) }
        self.routes = RouterTrie(base: builder)
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
        routes.resolve(path)?.value ?? []
    }
}
