import ConciergeCore
import ConciergeProviders
import Foundation
import Hummingbird

/// The account's pages: sign-in, sign-up, email verification, password reset, social sign-in
/// (the dev identity provider in dev mode), and the account page with its methods, linking,
/// sign-out everywhere and deletion. They call the same `AccountService` and `SessionService`
/// as the `/account` API; every sign-in ends in a platform bearer session of vertical "web",
/// kept in the session cookie. Forms post to `/account/web/…`, paths the API does not use.
struct AccountPages: Sendable {
    let web: WebFrontEnd
    let accounts: AccountService
    let sessions: SessionService
    /// SMS codes, the proof of a phone being linked.
    let phoneCodes: SignInService
    /// The dev identity provider (dev mode only), and the issuers its tokens are minted for.
    let devIdentity: DevIdentityProvider?
    let issuers: [IDTokenIssuer]
    /// The redirect flow's client ids (the first configured audience of each provider), nil
    /// when the provider is not configured, and where the provider sends the browser back.
    let appleClientID: String?
    let googleClientID: String?
    let publicURL: String

    static let vertical = "web"

    /// Mounts the negotiation of the API's own paths (before the API's routes are added, so it
    /// wraps them) and the pages' other routes.
    func mountBeforeAPI(on router: Router<AppRequestContext>) {
        router.add(
            middleware: AccountPageNegotiation(
                pages: ["/account": accountPage, "/account/sign-in": signInPage, "/account/sign-up": signUpPage],
                pageErrors: WebPageMiddleware(web: web)))
    }

    func addRoutes(to router: Router<AppRequestContext>) {
        let pages = web.pages(on: router, "account")
        pages.get("verify-email", use: verifyEmailPage)
        pages.get("forgot-password", use: forgotPasswordPage)
        pages.get("reset-password", use: resetPasswordPage)
        pages.get("delete", use: deletePage)
        pages.post("web/sign-in", use: signIn)
        pages.post("web/sign-up", use: signUp)
        pages.post("web/sign-out", use: signOut)
        pages.post("web/sign-out-everywhere", use: signOutEverywhere)
        pages.post("web/verify-email", use: verifyEmail)
        pages.post("web/resend-verification", use: resendVerification)
        pages.post("web/forgot-password", use: forgotPassword)
        pages.post("web/reset-password", use: resetPassword)
        pages.post("web/link/password", use: linkPassword)
        pages.post("web/link/phone-code", use: sendPhoneCode)
        pages.post("web/link/phone", use: linkPhone)
        pages.post("web/delete", use: deleteAccount)
        if appleClientID != nil || googleClientID != nil {
            pages.get("social/start", use: providerStart)
            pages.post("social/callback", use: providerCallback)
        }
        if web.isDev, devIdentity != nil {
            pages.get("social/dev", use: devProviderPage)
            pages.post("web/social/dev", use: devProviderSignIn)
        }
    }

    // MARK: Shared

    func text(_ key: String, _ visit: WebVisit) -> String {
        web.strings.text("account", key, visit.language)
    }

    /// Ends the visitor's earlier web session (a new sign-in replaces it), opens a bearer session
    /// of the web for `accountID`, sets the cookie and goes on to `next`.
    func signedIn(accountID: String, visit: WebVisit, next: String?) async throws -> Response {
        if let previous = visit.session { try? await sessions.revoke(previous) }
        let issued = try await sessions.open(.bearer, accountID: accountID, vertical: Self.vertical)
        return web.redirect(
            WebFrontEnd.localPath(next) ?? "/account", visit: visit,
            cookies: [web.sessionCookie(token: issued.accessToken, expiresAt: issued.accessExpiresAt)])
    }

    /// A platform sign-in's refreshable session is not the web's: it ends at once, and the web
    /// opens its own bearer session for the account.
    func convert(_ signedIn: AccountService.SignedIn, visit: WebVisit, next: String?) async throws -> Response {
        if let platform = try? await sessions.authenticate(token: signedIn.session.accessToken) {
            try? await sessions.revoke(platform)
        }
        return try await self.signedIn(accountID: signedIn.account.id, visit: visit, next: next)
    }

    /// The signed-in account of a form post; signed out, the visitor signs in and comes back to
    /// the account page (not to the form's POST-only path).
    func requireAccount(_ visit: WebVisit) throws -> String {
        guard let accountID = visit.accountID else { throw WebRedirect(to: "/account/sign-in?next=%2Faccount") }
        return accountID
    }

    /// `next` from the query, as a local path only.
    static func next(_ request: Request) -> String? {
        WebFrontEnd.localPath(request.uri.queryParameters.get("next"))
    }

    /// Adds `next` to a page path when there is one.
    static func path(_ path: String, next: String?) -> String {
        guard let next else { return path }
        return path + (path.contains("?") ? "&" : "?") + "next=" + WebFrontEnd.queryEscaped(next)
    }
}
