import ConciergeCore
import ConciergeProviders
import Foundation
import Hummingbird

/// `/account` in a browser: how the account signs in, its confirmed emails and phones, adding
/// a method (with proof of it, as `POST /account/link`), sign-out everywhere and deletion.
extension AccountPages {
    /// The notices the account page shows after a redirect (`?done=`), never free text.
    static let accountNotices: Set<String> = ["signed_up", "verified", "resent", "linked"]

    @Sendable func accountPage(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let accountID = try web.requireSignIn(visit)
        var data: [String: Any] = [:]
        if let done = request.uri.queryParameters.get("done"), Self.accountNotices.contains(done) {
            data["notice"] = text(done, visit)
        }
        return try await accountView(accountID: accountID, visit: visit, data: data)
    }

    func accountView(
        accountID: String, visit: WebVisit, data: [String: Any], status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let account = try await accounts.account(id: accountID)
        var data = data
        if let name = account.displayName, !name.isEmpty { data["name"] = name }
        data["methods"] = account.methods.map { method(of: $0, visit: visit) }
        data["hasUnverified"] = account.methods.contains { $0.kind == .email && !$0.verified }
        data["verifiedEmails"] = account.verifiedEmails
        data["verifiedPhones"] = account.verifiedPhones
        let social = socialButtons(visit: visit, next: "/account", intent: "link")
        data["social"] = social
        data["hasSocial"] = !social.isEmpty
        return web.page(
            "account/index", title: text("account_title", visit), data: data, visit: visit, status: status,
            styles: ["account.css"])
    }

    /// One sign-in method as the page lists it.
    func method(of method: AccountOverview.Method, visit: WebVisit) -> [String: Any] {
        let label: String
        var detail = method.identifier
        switch method.kind {
        case .email: label = text(method.hasPassword ? "method_email" : "method_email_only", visit)
        case .username: label = text("method_username", visit)
        case .phone: label = text("method_phone", visit)
        case .oidc:
            // `issuer subject`: the provider's name and its id of the person.
            let parts = method.identifier.split(separator: " ", maxSplits: 1).map(String.init)
            let issuer = parts.first ?? ""
            detail = parts.count > 1 ? parts[1] : ""
            if issuer == IDTokenIssuer.appleIssuer {
                label = text("method_apple", visit)
            } else if IDTokenIssuer.googleIssuers.contains(issuer) {
                label = text("method_google", visit)
            } else {
                label = "\(text("method_oidc", visit)) (\(URL(string: issuer)?.host ?? issuer))"
            }
        }
        return [
            "kind": method.kind.rawValue, "label": label, "detail": detail, "verified": method.verified,
            "showBadge": method.kind == .email || method.kind == .phone,
        ]
    }

    // MARK: Linking

    @Sendable func linkPassword(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let accountID = try requireAccount(visit)
        let form = try await web.form(request, context: context, visit: visit)
        let login = form["login"] ?? ""
        let password = form.all("password").first ?? ""
        var values: [String: Any] = ["linkLogin": login]
        var errors: [String: String] = [:]
        if login.isEmpty { errors["link_login"] = text("error_login_empty", visit) }
        if password.isEmpty { errors["link_password"] = text("error_password_empty", visit) }
        if !errors.isEmpty {
            values["errors"] = errors
            return try await accountView(accountID: accountID, visit: visit, data: values, status: .badRequest)
        }
        return try await link(
            accountID: accountID, proof: .password(login: login, password: password), visit: visit,
            context: context, values: values,
            fields: ["invalid_credentials": "link_password", "credential_in_use": "link_login"])
    }

    /// Texts a code to the phone being linked; the page then asks for it.
    @Sendable func sendPhoneCode(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let accountID = try requireAccount(visit)
        let form = try await web.form(request, context: context, visit: visit)
        let phone = form["phone"] ?? ""
        guard !phone.isEmpty else {
            return try await accountView(
                accountID: accountID, visit: visit, data: ["errors": ["phone": text("error_phone_empty", visit)]],
                status: .badRequest)
        }
        do {
            _ = try await phoneCodes.sendCode(to: phone, clientIP: context.clientIP)
            return try await accountView(
                accountID: accountID, visit: visit,
                data: ["phone": phone, "codeSent": true, "phoneNotice": text("code_sent", visit)])
        } catch {
            guard let refusal = AccountPageError.from(error, strings: web.strings, language: visit.language) else {
                throw error
            }
            return try await accountView(
                accountID: accountID, visit: visit,
                data: ["phone": phone, "errors": ["phone": refusal.message]], status: refusal.status)
        }
    }

    @Sendable func linkPhone(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let accountID = try requireAccount(visit)
        let form = try await web.form(request, context: context, visit: visit)
        let phone = form["phone"] ?? ""
        let code = form["code"] ?? ""
        let values: [String: Any] = ["phone": phone, "codeSent": true]
        guard !code.isEmpty else {
            return try await accountView(
                accountID: accountID, visit: visit,
                data: values.merging(["errors": ["code": text("error_code_empty", visit)]]) { _, new in new },
                status: .badRequest)
        }
        return try await link(
            accountID: accountID, proof: .smsCode(phone: phone, code: code), visit: visit, context: context,
            values: values, fields: ["invalid_phone": "code", "credential_in_use": "code"])
    }

    /// Links the proven method; a refusal is said next to the form's field.
    func link(
        accountID: String, proof: AccountService.Proof, visit: WebVisit, context: AppRequestContext,
        values: [String: Any], fields: [String: String]
    ) async throws -> Response {
        do {
            _ = try await accounts.link(accountID: accountID, proof: proof, clientIP: context.clientIP)
        } catch {
            guard
                let refusal = AccountPageError.from(
                    error, strings: web.strings, language: visit.language, fields: fields)
            else { throw error }
            return try await accountView(
                accountID: accountID, visit: visit, data: values.merging(refusal.data) { _, new in new },
                status: refusal.status)
        }
        return web.redirect("/account?done=linked", visit: visit)
    }

    // MARK: Ending

    /// Every session of the account ends, whichever vertical or device opened it.
    @Sendable func signOutEverywhere(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let accountID = try requireAccount(visit)
        _ = try await web.form(request, context: context, visit: visit)
        try await sessions.revokeAll(accountID: accountID)
        return web.redirect(
            "/account/sign-in?done=signed_out_everywhere", visit: visit, cookies: [web.signedOutCookie()])
    }

    /// The confirm step before deletion.
    @Sendable func deletePage(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        _ = try web.requireSignIn(visit)
        return web.page(
            "account/delete", title: text("delete_confirm_title", visit), visit: visit, styles: ["account.css"])
    }

    /// Erases the account as `DELETE /account` does (its sessions end with it).
    @Sendable func deleteAccount(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let accountID = try requireAccount(visit)
        _ = try await web.form(request, context: context, visit: visit)
        try await accounts.deleteAccount(id: accountID)
        return web.redirect("/account/sign-in?done=deleted", visit: visit, cookies: [web.signedOutCookie()])
    }
}
