import ConciergeCore
import Foundation
import Hummingbird

/// Sign-in with an email or user name and password, sign-up with per-field messages, and
/// sign-out of this browser.
extension AccountPages {
    @Sendable func signInPage(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        var data: [String: Any] = [:]
        if let done = request.uri.queryParameters.get("done"), Self.signInNotices.contains(done) {
            data["notice"] = text(done, visit)
        }
        return signInForm(visit: visit, next: Self.next(request), data: data)
    }

    @Sendable func signIn(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let form = try await web.form(request, context: context, visit: visit)
        let next = WebFrontEnd.localPath(form["next"])
        let login = form["login"] ?? ""
        var values: [String: Any] = ["next": next ?? "", "login": login]
        var errors: [String: String] = [:]
        if login.isEmpty { errors["login"] = text("error_login_empty", visit) }
        if (form.all("password").first ?? "").isEmpty { errors["password"] = text("error_password_empty", visit) }
        guard errors.isEmpty else {
            values["errors"] = errors
            return signInForm(visit: visit, next: next, data: values, status: .badRequest)
        }
        do {
            let signedIn = try await accounts.signIn(
                login: login, password: form.all("password").first ?? "", clientIP: context.clientIP,
                vertical: Self.vertical, kind: .bearer)
            if let previous = visit.session { try? await sessions.revoke(previous) }
            return web.redirect(
                WebFrontEnd.localPath(next) ?? "/account", visit: visit,
                cookies: [
                    web.sessionCookie(token: signedIn.session.accessToken, expiresAt: signedIn.session.accessExpiresAt)
                ])
        } catch {
            guard let refusal = AccountPageError.from(error, strings: web.strings, language: visit.language) else {
                throw error
            }
            values.merge(refusal.data) { _, new in new }
            return signInForm(visit: visit, next: next, data: values, status: refusal.status)
        }
    }

    @Sendable func signUpPage(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        return signUpForm(visit: visit, data: ["next": Self.next(request) ?? ""])
    }

    @Sendable func signUp(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let form = try await web.form(request, context: context, visit: visit)
        let next = WebFrontEnd.localPath(form["next"])
        let email = form["email"] ?? ""
        let username = form["username"] ?? ""
        let name = form["name"] ?? ""
        var values: [String: Any] = ["next": next ?? "", "email": email, "username": username, "name": name]
        do {
            // The same page whether the address was free or taken (finding 11): sign in next.
            _ = try await accounts.registerWithoutSession(
                email: email.isEmpty ? nil : email, username: username.isEmpty ? nil : username,
                password: form.all("password").first ?? "", name: name.isEmpty ? nil : name,
                clientIP: context.clientIP)
            return web.redirect(
                Self.path("/account/sign-in", next: next) + (next == nil ? "?" : "&") + "done=check_mail",
                visit: visit)
        } catch {
            guard let refusal = AccountPageError.from(error, strings: web.strings, language: visit.language) else {
                throw error
            }
            values.merge(refusal.data) { _, new in new }
            return signUpForm(visit: visit, data: values, status: refusal.status)
        }
    }

    /// Ends this browser's session and forgets the cookie.
    @Sendable func signOut(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        _ = try await web.form(request, context: context, visit: visit)
        if let session = visit.session { try await sessions.revoke(session) }
        return web.redirect("/account/sign-in?done=signed_out", visit: visit, cookies: [web.signedOutCookie()])
    }

    // MARK: Forms

    /// The notices the sign-in page shows after a redirect (`?done=`), never free text.
    static let signInNotices: Set<String> = [
        "signed_out", "signed_out_everywhere", "deleted", "reset_done", "verified", "check_mail",
    ]

    func signInForm(
        visit: WebVisit, next: String?, data: [String: Any], status: HTTPResponse.Status = .ok
    ) -> Response {
        var data = data
        data["next"] = next ?? ""
        data["signUpHref"] = Self.path("/account/sign-up", next: next)
        let social = socialButtons(visit: visit, next: next, intent: "sign-in")
        data["social"] = social
        data["hasSocial"] = !social.isEmpty
        return web.page(
            "account/sign-in", title: text("sign_in_title", visit), data: data, visit: visit, status: status,
            styles: ["account.css"])
    }

    func signUpForm(visit: WebVisit, data: [String: Any], status: HTTPResponse.Status = .ok) -> Response {
        var data = data
        let next = WebFrontEnd.localPath(data["next"] as? String)
        data["signInHref"] = Self.path("/account/sign-in", next: next)
        let social = socialButtons(visit: visit, next: next, intent: "sign-in")
        data["social"] = social
        data["hasSocial"] = !social.isEmpty
        return web.page(
            "account/sign-up", title: text("sign_up_title", visit), data: data, visit: visit, status: status,
            styles: ["account.css"])
    }

    /// "Continue with Apple/Google" (`SignInProviderButtons`, which the verticals' sign-in pages
    /// offer too).
    func socialButtons(visit: WebVisit, next: String?, intent: String) -> [[String: String]] {
        SignInProviderButtons(
            web: web, devProvider: devIdentity != nil, appleClientID: appleClientID, googleClientID: googleClientID
        ).buttons(language: visit.language, next: next, intent: intent)
    }
}
