import Hummingbird

/// `GET /account`, `/account/sign-in` and `/account/sign-up` are the account API's paths too
/// (`GET /account` answers JSON; the others take only POST). A browser navigating there asks for
/// `text/html` first, so this middleware, mounted on the router before the API's routes, answers
/// such requests with the page; every other request (apps, curl and schemathesis send
/// `application/json` or `*/*`) reaches the API exactly as before, 405s included.
struct AccountPageNegotiation: RouterMiddleware {
    typealias Context = AppRequestContext
    typealias Page = @Sendable (Request, AppRequestContext) async throws -> Response

    let pages: [String: Page]
    /// Failures of these pages answer as pages, as in every other page group.
    let pageErrors: WebPageMiddleware

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard request.method == .get, let page = pages[request.uri.path],
            Self.asksForHTMLFirst(request.headers[.accept])
        else { return try await next(request, context) }
        return try await pageErrors.handle(request, context: context) { request, context in
            try await page(request, context)
        }
    }

    /// Whether the first media type of `Accept` is `text/html` (a browser's navigation).
    static func asksForHTMLFirst(_ accept: String?) -> Bool {
        guard let first = accept?.split(separator: ",").first else { return false }
        let type = first.split(separator: ";").first ?? first
        return type.trimmingCharacters(in: .whitespaces).lowercased() == "text/html"
    }
}
