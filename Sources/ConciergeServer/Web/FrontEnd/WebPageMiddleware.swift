import ConciergeCore
import Hummingbird

/// Wraps page routes: a `WebRedirect` becomes a 303, a form without its CSRF token a 403 page,
/// and every other failure a page saying what went wrong in the visitor's language, with the
/// status the API would give (never the JSON error body of the API under the same prefix).
struct WebPageMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let web: WebFrontEnd

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let redirect as WebRedirect {
            let visit = await web.visit(request)
            return web.redirect(redirect.to, visit: visit)
        } catch is WebCSRFError {
            let visit = await web.visit(request)
            return web.page(
                "error", title: web.strings.text("common", "error_title", visit.language),
                data: ["message": web.strings.text("common", "error_csrf", visit.language)], visit: visit,
                status: .forbidden)
        } catch {
            let visit = await web.visit(request)
            let description = ErrorMiddleware<Context>.describe(error, request: request, logger: context.logger)
            let message =
                description.status == .notFound && !(error is ConciergeError)
                ? web.strings.text("common", "error_not_found", visit.language) : description.message
            return web.page(
                "error", title: web.strings.text("common", "error_title", visit.language),
                data: ["message": message, "status": Int(description.status.code)], visit: visit,
                status: description.status)
        }
    }
}
