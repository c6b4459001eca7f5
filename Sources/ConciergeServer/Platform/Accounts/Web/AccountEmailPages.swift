import ConciergeCore
import Foundation
import Hummingbird

/// The targets of the links in account emails (`AccountMessages`: `/account/verify-email?token=…`
/// and `/account/reset-password?token=…`) and the request for a reset link. Opening a link
/// changes nothing: mail scanners fetch links too, so the page asks for a press of a button,
/// which posts the token.
extension AccountPages {
    @Sendable func verifyEmailPage(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let token = request.uri.queryParameters.get("token") ?? ""
        return emailPage(
            "account/verify-email", title: "verify_title", visit: visit,
            data: token.isEmpty ? ["pageError": text("verify_missing", visit)] : ["token": token])
    }

    @Sendable func verifyEmail(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let form = try await web.form(request, context: context, visit: visit)
        do {
            try await accounts.verifyEmail(token: form["token"] ?? "", sessionAccountID: visit.accountID)
        } catch {
            guard let refusal = AccountPageError.from(error, strings: web.strings, language: visit.language) else {
                throw error
            }
            return emailPage(
                "account/verify-email", title: "verify_title", visit: visit, data: ["pageError": refusal.message],
                status: refusal.status)
        }
        return web.redirect(
            visit.isSignedIn ? "/account?done=verified" : "/account/sign-in?done=verified", visit: visit)
    }

    /// Sends the account's unverified addresses a new link (from the account page).
    @Sendable func resendVerification(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let accountID = try requireAccount(visit)
        _ = try await web.form(request, context: context, visit: visit)
        do {
            try await accounts.resendVerification(accountID: accountID, clientIP: context.clientIP)
        } catch {
            guard
                let refusal = AccountPageError.from(
                    error, strings: web.strings, language: visit.language, mail: true)
            else { throw error }
            return try await accountView(
                accountID: accountID, visit: visit, data: ["pageError": refusal.message], status: refusal.status)
        }
        return web.redirect("/account?done=resent", visit: visit)
    }

    @Sendable func forgotPasswordPage(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        return emailPage("account/forgot-password", title: "forgot_title", visit: visit, data: [:])
    }

    /// The same answer whether or not an account has the address (the service's rule).
    @Sendable func forgotPassword(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let form = try await web.form(request, context: context, visit: visit)
        let email = form["email"] ?? ""
        do {
            try await accounts.forgotPassword(email: email, clientIP: context.clientIP)
        } catch {
            guard
                let refusal = AccountPageError.from(
                    error, strings: web.strings, language: visit.language, mail: true)
            else { throw error }
            var data = refusal.data
            data["email"] = email
            return emailPage(
                "account/forgot-password", title: "forgot_title", visit: visit, data: data, status: refusal.status)
        }
        return emailPage(
            "account/forgot-password", title: "forgot_title", visit: visit,
            data: ["notice": text("forgot_sent", visit), "email": email])
    }

    @Sendable func resetPasswordPage(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let token = request.uri.queryParameters.get("token") ?? ""
        return emailPage(
            "account/reset-password", title: "reset_title", visit: visit,
            data: token.isEmpty ? ["pageError": text("verify_missing", visit)] : ["token": token])
    }

    /// A new password ends every session (the service's rule), this browser's too: the person
    /// signs in again with it.
    @Sendable func resetPassword(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let form = try await web.form(request, context: context, visit: visit)
        let token = form["token"] ?? ""
        do {
            try await accounts.resetPassword(
                token: token, password: form.all("password").first ?? "", clientIP: context.clientIP)
        } catch {
            guard let refusal = AccountPageError.from(error, strings: web.strings, language: visit.language) else {
                throw error
            }
            var data = refusal.data
            data["token"] = token
            return emailPage(
                "account/reset-password", title: "reset_title", visit: visit, data: data, status: refusal.status)
        }
        return web.redirect("/account/sign-in?done=reset_done", visit: visit, cookies: [web.signedOutCookie()])
    }

    func emailPage(
        _ template: String, title: String, visit: WebVisit, data: [String: Any], status: HTTPResponse.Status = .ok
    ) -> Response {
        web.page(template, title: text(title, visit), data: data, visit: visit, status: status, styles: ["account.css"])
    }
}
