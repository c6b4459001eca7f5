import Foundation
import HTTPTypes
import Hummingbird

/// Headers every answer carries, errors included (security review finding 22): no MIME sniffing
/// (a 404 body echoes the path), no referrer (return-page URLs carry a secret), no framing (the
/// sandbox's Pay button must not be clickjacked). A response that sets its own
/// `Content-Security-Policy` (an HTML page with its style's hash) keeps it; JSON gets the
/// strictest one, since nothing in it should ever run or load. Every other answer that is not
/// HTML — an SVG picture, a PNG, a PDF, plain text — gets one that lets nothing run or load but
/// its own inline styles: an SVG opened as its own page is a document that could run script
/// (review 2026-11-27, finding 9).
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    static var strictPolicy: String { "default-src 'none'; frame-ancestors 'none'; base-uri 'none'" }
    static var nonHTMLPolicy: String { "default-src 'none'; style-src 'unsafe-inline'" }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var response = try await next(request, context)
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.referrerPolicy] = "no-referrer"
        response.headers[.xFrameOptions] = "DENY"
        if response.headers[.contentSecurityPolicy] == nil {
            response.headers[.contentSecurityPolicy] = Self.policy(contentType: response.headers[.contentType])
        }
        return response
    }

    /// The policy for an answer that set none: nil for HTML (a page sets its own).
    static func policy(contentType: String?) -> String? {
        let mediaType = (contentType ?? "").split(separator: ";").first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        switch mediaType {
        case "text/html": return nil
        case let type? where type == "application/json" || type.hasSuffix("+json"): return strictPolicy
        default: return nonHTMLPolicy
        }
    }
}

extension HTTPField.Name {
    static let referrerPolicy = Self("Referrer-Policy")!
    static let xFrameOptions = Self("X-Frame-Options")!
}
