import ConciergeCore
import Hummingbird

/// Brings a guest who started paying on the web pages back to them. The payment's return URL is
/// the API's `/stays/payment/return?session=…` (the app's contract, answered in JSON); the
/// reserve page leaves a cookie naming that payment's return secret, and only a browser that
/// carries it for the same secret is sent on to `/stays/paid`. Every other request to the
/// return URL (the app's) is answered by the API as before.
struct StaysWebPaymentReturnMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    static let path = "/stays/payment/return"
    static let cookie = "concierge_stays_checkout"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard request.method == .get, request.uri.path == Self.path,
            let secret = request.uri.queryParameters.get("session"), Self.isCookieSafe(secret),
            let remembered = WebCookie.parse(request)[Self.cookie],
            SecretHasher.constantTimeEquals(remembered, secret)
        else { return try await next(request, context) }
        return Response(
            status: .seeOther, headers: [.location: "/stays/paid?session=\(secret)", .cacheControl: "no-store"])
    }

    /// The cookie that marks a checkout as started on the web pages (for as long as a hold may
    /// last), or none when the secret cannot be a cookie's value.
    static func cookies(for secret: String, web: WebFrontEnd) -> [String] {
        guard isCookieSafe(secret) else { return [] }
        return [WebCookie.setting(cookie, secret, maxAge: 24 * 3600, secure: web.secureCookies)]
    }

    static func clearingCookie(web: WebFrontEnd) -> String {
        WebCookie.setting(cookie, "", maxAge: 0, secure: web.secureCookies)
    }

    static func isCookieSafe(_ secret: String) -> Bool {
        (1...100).contains(secret.count)
            && secret.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    }
}
