import ConciergeCore
import Hummingbird

/// Brings a web order back to its page after paying. Every events payment returns to
/// `GET /events/api/checkout/success?session_id=…` (the app's contract, answered with JSON). A
/// checkout opened on the web marks its `session_id` in a cookie of the browser that opened it;
/// only that browser's return visit is sent on to `/events/checkout-return` (the booking's page).
/// The app never holds the cookie, so what it gets from the route is unchanged.
struct EventsCheckoutReturn: RouterMiddleware {
    typealias Context = AppRequestContext

    static let cookieName = "concierge_events_checkouts"
    static let returnPath = "/events/api/checkout/success"
    /// Checkouts a browser may have open at once (tabs); older marks are dropped.
    static let kept = 5

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard request.method == .get, request.uri.path == Self.returnPath,
            let sessionID = request.uri.queryParameters.get("session_id"), !sessionID.isEmpty,
            Self.marked(in: request).contains(sessionID)
        else { return try await next(request, context) }
        return Response(
            status: .seeOther,
            headers: [
                .location: "/events/checkout-return?session_id=\(WebFrontEnd.queryEscaped(sessionID))",
                .cacheControl: "no-store",
            ])
    }

    static func marked(in request: Request) -> [String] {
        (WebCookie.parse(request)[cookieName] ?? "").split(separator: ".").map(String.init)
    }

    /// The cookie with `sessionID` added to the browser's marks.
    static func cookie(adding sessionID: String, to request: Request, web: WebFrontEnd) -> String {
        let marks = (marked(in: request).filter { $0 != sessionID } + [sessionID]).suffix(kept)
        return WebCookie.setting(cookieName, marks.joined(separator: "."), maxAge: 86_400, secure: web.secureCookies)
    }
}
