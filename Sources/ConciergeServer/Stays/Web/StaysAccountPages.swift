import ConciergeCore
import HTTPTypes
import Hummingbird

/// `/stays/register` and `/stays/sign-in`: the API's `POST /stays/user/register` (every refused
/// field's sentence beside it, the rest of the form kept; done, the sign-in page says "check your
/// mail", as for a taken address) and `POST /stays/login` (user name or email), which ends in a
/// platform bearer session for the web's session cookie. The sign-in page offers every method
/// the platform has, each coming back to the stays page asked for: the password, the platform's
/// provider buttons (`SignInProviderButtons`) and an SMS code through the platform's phone
/// sign-in pages (`/rides/sign-in`, where the code is sent and checked).
struct StaysAccountPages {
    let web: WebFrontEnd
    let accounts: StaysAccountService
    let sessions: SessionService
    let providerButtons: SignInProviderButtons

    static let registerFields = ["username", "firstName", "lastName", "email", "phone"]

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("register", use: registerPage)
        group.post("register", use: register)
        group.get("sign-in", use: signInPage)
        group.post("sign-in", use: signIn)
    }

    // MARK: Registration

    @Sendable func registerPage(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let next = WebFrontEnd.localPath(request.uri.queryParameters.get("next")) ?? ""
        return registration(visit: visit, values: [:], errors: [:], next: next)
    }

    @Sendable func register(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let form = try await web.form(request, context: context, visit: visit)
        let next = WebFrontEnd.localPath(form["next"]) ?? ""
        var values: [String: String] = [:]
        for field in Self.registerFields { values[field] = form[field] ?? "" }
        do {
            // The same page whether the address was free or taken (finding 11): sign in next.
            _ = try await accounts.register(
                username: values["username"] ?? "", firstName: values["firstName"] ?? "",
                lastName: values["lastName"] ?? "", email: values["email"] ?? "", phone: values["phone"] ?? "",
                password: form.all("password").first ?? "", clientIP: context.clientIP)
            let back = next.isEmpty ? "" : "&next=\(WebFrontEnd.queryEscaped(next))"
            return web.redirect("/stays/sign-in?done=registered\(back)", visit: visit)
        } catch let error as StaysValidationError {
            var errors: [String: String] = [:]
            for (field, message) in error.fields {
                errors[field] = StaysWebMessages.text(message, web: web, language: visit.language)
            }
            return registration(
                visit: visit, values: values, errors: errors, next: next,
                status: error.conflict ? .conflict : .badRequest)
        }
    }

    private func registration(
        visit: WebVisit, values: [String: String], errors: [String: String], next: String,
        status: HTTPResponse.Status = .ok
    ) -> Response {
        var data: [String: Any] = ["values": values, "errors": errors, "next": next]
        if !errors.isEmpty {
            data["summary"] = web.strings.text("stays", errors.count == 1 ? "fix_one" : "fix_other", visit.language)
                .replacingOccurrences(of: "{n}", with: String(errors.count))
        }
        data["signInHref"] = next.isEmpty ? "/stays/sign-in" : "/stays/sign-in?next=\(WebFrontEnd.queryEscaped(next))"
        return web.page(
            "stays/register", title: web.strings.text("stays", "register_title", visit.language), data: data,
            visit: visit, status: status, styles: ["stays.css"])
    }

    // MARK: Signing in

    @Sendable func signInPage(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let next = WebFrontEnd.localPath(request.uri.queryParameters.get("next")) ?? ""
        var notice: String?
        if request.uri.queryParameters.get("done") == "registered" {
            notice = web.strings.text("stays", "registered_check_mail", visit.language)
        }
        return signInForm(visit: visit, login: "", error: nil, next: next, notice: notice)
    }

    @Sendable func signIn(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let form = try await web.form(request, context: context, visit: visit)
        let next = WebFrontEnd.localPath(form["next"]) ?? ""
        let login = form["login"] ?? ""
        do {
            let signedIn = try await accounts.login(
                username: login, password: form.all("password").first ?? "", clientIP: context.clientIP)
            // The API's sign-in opens a refreshable session for an app; the web keeps a bearer
            // session in its cookie instead, so the app's one is ended at once.
            if let opened = try? await sessions.authenticate(token: signedIn.session.accessToken) {
                try await sessions.revoke(opened)
            }
            let cookie = try await sessionCookie(accountID: signedIn.guest.accountID)
            return web.redirect(next.isEmpty ? "/stays/reservations" : next, visit: visit, cookies: [cookie])
        } catch let error as ConciergeError where [.unauthorized, .invalidInput].contains(error.category) {
            return signInForm(
                visit: visit, login: login,
                error: StaysWebMessages.text(error.message, web: web, language: visit.language),
                next: next, status: .unauthorized)
        } catch let error as ConciergeError {
            guard case .tooManyRequests = error.category else { throw error }
            return signInForm(
                visit: visit, login: login,
                error: StaysWebMessages.text(error.message, web: web, language: visit.language),
                next: next, status: .tooManyRequests)
        }
    }

    private func signInForm(
        visit: WebVisit, login: String, error: String?, next: String, notice: String? = nil,
        status: HTTPResponse.Status = .ok
    ) -> Response {
        // The other methods sign in on the platform's pages and come back here, to the page the
        // password form would lead to.
        let back = next.isEmpty ? "/stays/reservations" : next
        var data = providerButtons.data(language: visit.language, next: back)
        data["login"] = login
        data["next"] = next
        data["phoneNext"] = back
        if let notice { data["notice"] = notice }
        if let error { data["error"] = error }
        data["registerHref"] =
            next.isEmpty ? "/stays/register" : "/stays/register?next=\(WebFrontEnd.queryEscaped(next))"
        return web.page(
            "stays/sign-in", title: web.strings.text("stays", "sign_in_title", visit.language), data: data,
            visit: visit, status: status, styles: ["stays.css", "account.css"])
    }

    /// A platform bearer session for the web's session cookie.
    private func sessionCookie(accountID: String) async throws -> String {
        let issued = try await sessions.open(.bearer, accountID: accountID, vertical: "web")
        return web.sessionCookie(token: issued.accessToken, expiresAt: issued.accessExpiresAt)
    }
}
