import HTTPTypes
import Hummingbird

/// Headers every answer carries, errors included (security review finding 22): no MIME sniffing
/// (a 404 body echoes the path), no referrer (return-page URLs carry a secret), no framing (the
/// sandbox's Pay button must not be clickjacked). A response that sets its own
/// `Content-Security-Policy` (an HTML page with its style's hash) keeps it; JSON gets the
/// strictest one, since nothing in it should ever run or load.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    static var strictPolicy: String { "default-src 'none'; frame-ancestors 'none'; base-uri 'none'" }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var response = try await next(request, context)
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.referrerPolicy] = "no-referrer"
        response.headers[.xFrameOptions] = "DENY"
        if response.headers[.contentSecurityPolicy] == nil,
            response.headers[.contentType]?.hasPrefix("application/json") == true
        {
            response.headers[.contentSecurityPolicy] = Self.strictPolicy
        }
        return response
    }
}

extension HTTPField.Name {
    static let referrerPolicy = Self("Referrer-Policy")!
    static let xFrameOptions = Self("X-Frame-Options")!
}
