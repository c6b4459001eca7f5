import ConciergeCore
import Foundation
import HTTPTypes
import Hummingbird
import Mustache
import NIOCore

/// What every page of the web front end shares: the templates and the words of each language,
/// the visitor's session from the session cookie (the platform's sessions, so signing out or
/// deleting the account ends it at once), CSRF tokens, the operator's sign-in, and one way to
/// answer with a page or a redirect. Verticals build their pages on it; it knows none of them.
struct WebFrontEnd: Sendable {
    let templates: MustacheLibrary
    let strings: WebStrings
    let assets: WebAssets
    let sessions: SessionService
    let operatorAccounts: any OperatorAccountStore
    /// Named operators, their sign-in and the audit log (`WebFrontEnd+Operators`).
    let operators: OperatorService
    let hasher: SecretHasher
    let random: any RandomSource
    let clock: any TimeSource
    /// `Secure` cookies: the public URL is https.
    let secureCookies: Bool
    /// The admin token operators sign in to `/ops` with; nil turns `/ops` off.
    let adminToken: String?
    let isDev: Bool

    /// Pages may run only this server's scripts and styles; forms post to this server (and the
    /// payment providers' checkouts the server redirects to); nothing may frame a page.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        + "form-action 'self' https://www.mollie.com https://checkout.stripe.com; frame-ancestors 'none'; "
        + "base-uri 'none'"

    init(
        configuration: ServerConfiguration, sessions: SessionService, operatorAccounts: any OperatorAccountStore,
        operators: OperatorService, hasher: SecretHasher, random: any RandomSource, clock: any TimeSource
    ) async throws {
        guard let root = Bundle.module.url(forResource: "Web", withExtension: nil) else {
            throw ConciergeError(
                .unavailable(retryAfterSeconds: nil), code: "web_resources_missing",
                message: "The web front end's templates are missing from the server's bundle; rebuild the server.")
        }
        self.templates = try await MustacheLibrary(directory: root.appendingPathComponent("Templates").path)
        self.strings = try WebStrings.load(from: root.appendingPathComponent("Strings"))
        self.assets = try WebAssets.load(from: root.appendingPathComponent("Assets"))
        self.sessions = sessions
        self.operatorAccounts = operatorAccounts
        self.operators = operators
        self.hasher = hasher
        self.random = random
        self.clock = clock
        self.secureCookies = configuration.publicURL.hasPrefix("https://")
        self.adminToken = configuration.adminToken
        self.isDev = configuration.mode == .dev
    }

    /// A group of page routes under `prefix` whose failures answer as pages (never the JSON error
    /// body of the vertical's API under the same prefix).
    func pages(on router: Router<AppRequestContext>, _ prefix: String = "") -> RouterGroup<AppRequestContext> {
        router.group(RouterPath(prefix)).add(middleware: WebPageMiddleware(web: self))
    }

    // MARK: The visitor

    func visit(_ request: Request) async -> WebVisit {
        let cookies = WebCookie.parse(request)
        var setCookies: [String] = []
        let chosen = request.uri.queryParameters.get("lang")
        let language = WebLanguage.negotiate(
            query: chosen, cookie: cookies[WebCookie.language], acceptLanguage: request.headers[.acceptLanguage])
        if chosen.flatMap(WebLanguage.init(rawValue:)) != nil, cookies[WebCookie.language] != language.rawValue {
            setCookies.append(
                WebCookie.setting(WebCookie.language, language.rawValue, maxAge: 365 * 86_400, secure: secureCookies))
        }
        var csrfSecret = cookies[WebCookie.csrf] ?? ""
        if csrfSecret.count < 32 || csrfSecret.count > 128 {
            csrfSecret = random.token(byteCount: 32)
            setCookies.append(WebCookie.setting(WebCookie.csrf, csrfSecret, maxAge: nil, secure: secureCookies))
        }
        let token = cookies[WebCookie.session].flatMap { $0.isEmpty ? nil : $0 }
        let session = try? await sessions.authenticate(token: token)
        return WebVisit(
            language: language, session: session, sessionToken: session == nil ? nil : token,
            csrfToken: hasher.hash(csrfSecret, purpose: "web-csrf"),
            operatorIdentity: await operatorIdentity(cookies[WebCookie.operatorSession]),
            path: Self.pathWithoutLanguage(path: request.uri.path, query: request.uri.query),
            answersForm: request.method == .post, cookies: setCookies)
    }

    /// The posted form, after checking its CSRF token against the visitor's cookie.
    func form(_ request: Request, context: AppRequestContext, visit: WebVisit) async throws -> WebForm {
        let buffer = try await request.body.collect(upTo: context.maxUploadSize)
        let form = WebForm(body: String(buffer: buffer))
        guard let token = form["_csrf"], SecretHasher.constantTimeEquals(token, visit.csrfToken) else {
            throw WebCSRFError()
        }
        return form
    }

    /// Sends a signed-out visitor to the sign-in page, coming back here afterwards.
    func requireSignIn(_ visit: WebVisit, signInPath: String = "/account/sign-in") throws -> String {
        guard let accountID = visit.accountID else {
            throw WebRedirect(to: "\(signInPath)?next=\(Self.queryEscaped(visit.path))")
        }
        return accountID
    }

    /// Sends a visitor who is not signed in to `/ops` to the operator sign-in.
    func requireOperator(_ visit: WebVisit) throws {
        guard visit.isOperator else { throw WebRedirect(to: "/ops/sign-in?next=\(Self.queryEscaped(visit.path))") }
    }

    // MARK: Answers

    /// A page: `template` rendered with `data`, inside the layout. Every template also sees `t`
    /// (the words of the visitor's language), `csrf`, `lang`, `signedIn`, `isOperator`, `isDev`.
    /// `address` is the page's own address when it answers a form posted elsewhere (a refused
    /// form shown again at its target): the language switcher leads there, not to a path a link
    /// cannot open (accessibility review issue 5).
    func page(
        _ template: String, title: String, data: [String: Any] = [:], visit: WebVisit,
        status: HTTPResponse.Status = .ok, scripts: [String] = [], styles: [String] = [], address: String? = nil
    ) -> Response {
        var context = data
        context["t"] = strings.table(visit.language)
        context["csrf"] = visit.csrfToken
        context["lang"] = visit.language.rawValue
        context["signedIn"] = visit.isSignedIn
        context["isOperator"] = visit.isOperator
        context["isDev"] = isDev
        let body = templates.render(context, withTemplate: template) ?? "<p>Missing template \(template).</p>"
        var layout = context
        layout["title"] = title
        layout["body"] = body
        layout["scripts"] = scripts
        layout["styles"] = styles
        layout["nav"] = navigation(visit)
        layout["languages"] = WebLanguage.allCases.map { language in
            [
                "code": language.rawValue, "name": language == .de ? "Deutsch" : "English",
                "href": Self.adding("lang=\(language.rawValue)", to: visit.languageSwitchAddress(address)),
                "current": language == visit.language,
            ] as [String: Any]
        }
        let html = templates.render(layout, withTemplate: "layout") ?? body
        var headers: HTTPFields = [
            .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
            .contentSecurityPolicy: Self.contentSecurityPolicy,
        ]
        for cookie in visit.cookies { headers.append(HTTPField(name: .setCookie, value: cookie)) }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// A 303 to `location` (after a form), setting the visit's cookies and `cookies`.
    func redirect(_ location: String, visit: WebVisit, cookies: [String] = []) -> Response {
        var headers: HTTPFields = [.location: location, .cacheControl: "no-store"]
        for cookie in visit.cookies + cookies { headers.append(HTTPField(name: .setCookie, value: cookie)) }
        return Response(status: .seeOther, headers: headers)
    }

    /// The session cookie for a platform session's bearer token.
    func sessionCookie(token: String, expiresAt: Date) -> String {
        let seconds = max(0, Int(expiresAt.timeIntervalSince(clock.now)))
        return WebCookie.setting(WebCookie.session, token, maxAge: seconds, secure: secureCookies)
    }

    func signedOutCookie() -> String {
        WebCookie.setting(WebCookie.session, "", maxAge: 0, secure: secureCookies)
    }

    // MARK: Helpers

    private func navigation(_ visit: WebVisit) -> [[String: Any]] {
        let items: [(String, String)] = [
            ("/rides", "rides"), ("/events", "events"), ("/stays", "stays"), ("/commute", "commute"),
            ("/account", "account"),
        ]
        return items.map { href, key in
            [
                "href": href, "label": strings.text("common", "nav_\(key)", visit.language),
                "current": visit.path == href || visit.path.hasPrefix(href + "/") || visit.path.hasPrefix(href + "?"),
            ]
        }
    }

    /// A query parameter's value: everything but RFC 3986's unreserved characters escaped (also
    /// right for the identity providers' redirect parameters).
    static func queryEscaped(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    /// ASCII only: `CharacterSet.alphanumerics` would let `ü` through unescaped.
    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    private static func pathWithoutLanguage(path: String, query: String?) -> String {
        let kept = (query ?? "").split(separator: "&").filter { !$0.hasPrefix("lang=") }
        return kept.isEmpty ? path : "\(path)?\(kept.joined(separator: "&"))"
    }

    private static func adding(_ parameter: String, to path: String) -> String {
        path + (path.contains("?") ? "&" : "?") + parameter
    }
}

/// Thrown by a page to send the visitor elsewhere (sign in first); answered with a 303.
struct WebRedirect: Error, Sendable {
    let to: String
}

/// A form posted without this visitor's CSRF token.
struct WebCSRFError: Error, Sendable {}
