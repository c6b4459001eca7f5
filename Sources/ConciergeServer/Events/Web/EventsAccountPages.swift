import ConciergeCore
import Foundation
import HTTPTypes
import Hummingbird

/// The pages the events account emails link to (`EventsAccounts.links`):
/// `/events/verify-email?token=…&email=…` and `/events/reset-password?token=…&email=…`. Opening
/// a link only shows a button (mail scanners open links too); posting it does what
/// `EventsAuthController` does with the same `AccountService` calls. Without a token the pages
/// ask for the address to send a new link to.
struct EventsAccountPages {
    let web: WebFrontEnd
    let accounts: EventsAccounts

    // MARK: Email verification

    @Sendable func verifyPage(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        return verify(visit, request: request, data: [:])
    }

    @Sendable func verifyEmail(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let form = try await web.form(request, context: context, visit: visit)
        let token = form["token"] ?? ""
        do {
            guard !token.isEmpty, token.count <= 200 else { throw ConciergeError.invalidAccountToken }
            // Opened in the browser signed in to that account, nothing is removed; otherwise what
            // was made before the proof goes (MailboxProof, finding 1).
            try await accounts.accounts.verifyEmail(token: token, sessionAccountID: visit.accountID)
        } catch let error as ConciergeError {
            let words = EventsPageWords(web, visit)
            return verify(
                visit, request: request, data: ["pageError": words.error(error), "email": form["email"] ?? ""],
                status: error.code == "invalid_token"
                    ? .badRequest : ErrorMiddleware<AppRequestContext>.status(of: error.category).0)
        }
        return web.redirect("/events/verify-email?done=confirmed", visit: visit)
    }

    /// `POST /events/resend-verification`: a new confirmation link (same answer whether or not
    /// the address has an account, as the API's).
    @Sendable func resend(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let form = try await web.form(request, context: context, visit: visit)
        let email = form["email"] ?? ""
        do {
            try await accounts.accounts.resendVerification(
                email: email, clientIP: context.clientIP, links: accounts.links)
        } catch let error as ConciergeError {
            return verify(
                visit, request: request,
                data: ["emailError": EventsPageWords(web, visit).error(error), "email": email, "ask": true],
                status: ErrorMiddleware<AppRequestContext>.status(of: error.category).0)
        }
        let back = WebFrontEnd.localPath(form["next"]) ?? "/events/verify-email"
        return web.redirect(back + (back.contains("?") ? "&" : "?") + "done=sent", visit: visit)
    }

    private func verify(
        _ visit: WebVisit, request: Request, data: [String: Any], status: HTTPResponse.Status = .ok
    ) -> Response {
        let words = EventsPageWords(web, visit)
        var data = data
        let token = request.uri.queryParameters.get("token") ?? ""
        let done = request.uri.queryParameters.get("done")
        data["token"] = token
        data["email"] = data["email"] ?? request.uri.queryParameters.get("email") ?? ""
        data["confirmed"] = done == "confirmed"
        data["sent"] = done == "sent"
        data["hasToken"] = !token.isEmpty && done == nil && data["pageError"] == nil
        data["ask"] = data["ask"] ?? (done == nil && (token.isEmpty || data["pageError"] != nil))
        return web.page(
            "events/verify-email", title: words.text("verify_title"), data: data, visit: visit, status: status,
            styles: ["events.css"], address: "/events/verify-email")
    }

    // MARK: Password reset

    @Sendable func resetPage(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        return reset(visit, request: request, data: [:])
    }

    @Sendable func resetPassword(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let form = try await web.form(request, context: context, visit: visit)
        let token = form["token"] ?? ""
        let words = EventsPageWords(web, visit)
        do {
            guard !token.isEmpty, token.count <= 200 else { throw ConciergeError.invalidAccountToken }
            try await accounts.accounts.resetPassword(token: token, password: form.all("password").first ?? "")
        } catch let error as ConciergeError where error.code == "weak_password" {
            return reset(
                visit, request: request, data: ["passwordError": words.error(error), "token": token],
                status: .badRequest)
        } catch let error as ConciergeError {
            return reset(
                visit, request: request, data: ["pageError": words.error(error), "token": "", "ask": true],
                status: ErrorMiddleware<AppRequestContext>.status(of: error.category).0)
        }
        return web.redirect("/events/reset-password?done=changed", visit: visit)
    }

    /// `POST /events/forgot-password`: mails a reset link if the address has an account.
    @Sendable func forgot(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let form = try await web.form(request, context: context, visit: visit)
        let email = form["email"] ?? ""
        do {
            try await accounts.accounts.forgotPassword(email: email, clientIP: context.clientIP, links: accounts.links)
        } catch let error as ConciergeError {
            return reset(
                visit, request: request,
                data: ["emailError": EventsPageWords(web, visit).error(error), "email": email, "ask": true],
                status: ErrorMiddleware<AppRequestContext>.status(of: error.category).0)
        }
        return web.redirect("/events/reset-password?done=sent", visit: visit)
    }

    private func reset(
        _ visit: WebVisit, request: Request, data: [String: Any], status: HTTPResponse.Status = .ok
    ) -> Response {
        let words = EventsPageWords(web, visit)
        var data = data
        let done = request.uri.queryParameters.get("done")
        let token = (data["token"] as? String) ?? request.uri.queryParameters.get("token") ?? ""
        data["token"] = token
        data["email"] = data["email"] ?? request.uri.queryParameters.get("email") ?? ""
        data["changed"] = done == "changed"
        data["sent"] = done == "sent"
        data["hasToken"] = !token.isEmpty && done == nil
        data["ask"] = data["ask"] ?? (done == nil && token.isEmpty)
        data["signInHref"] = "/account/sign-in?next=%2Fevents"
        return web.page(
            "events/reset-password", title: words.text("reset_title"), data: data, visit: visit, status: status,
            styles: ["events.css"], address: "/events/reset-password")
    }
}
