import ConciergeCore
import Foundation
import Hummingbird

/// Signing in to rides on the web: the phone number, then the code from the SMS, through the
/// same `SignInService` calls as `/rides/sms-code-send` and `/rides/sms-code-verify` (the same
/// limits and messages). The token it gives is a platform bearer session, kept in the session
/// cookie; the phone waits in a short-lived cookie between the two steps, not in the address.
struct RidesSignInPages: Sendable {
    let rides: RidesWebPages

    static let phoneCookie = "concierge_rides_phone"

    private var web: WebFrontEnd { rides.web }

    @Sendable func sendCode(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let form = try await web.form(request, context: context, visit: visit)
        let next = WebFrontEnd.localPath(form["next"]) ?? "/rides"
        let phone = form["phone"] ?? ""
        let resending = form["resend"] == "1"
        do {
            guard !phone.isEmpty else {
                throw ConciergeError(.invalidInput, code: "invalid_phone", message: rides.text("phone_missing", visit))
            }
            _ = try await rides.signIn.sendCode(to: phone, clientIP: context.clientIP)
            let e164 = (try? PhoneNumber(normalizing: phone).e164) ?? phone
            let cookie = WebCookie.setting(Self.phoneCookie, e164, maxAge: 600, secure: web.secureCookies)
            let sent = resending ? "&resent=1" : ""
            return web.redirect(
                "/rides/sign-in/code?next=\(WebFrontEnd.queryEscaped(next))\(sent)", visit: visit, cookies: [cookie])
        } catch let refusal as ConciergeError {
            var errors = RidesPageErrors()
            if resending {
                errors.add(rides.sentence(refusal, visit), field: nil)
                return codePage(
                    visit, phone: phone, next: next, errors: errors, status: RidesWebPages.status(of: refusal))
            }
            rides.record(refusal, in: &errors, visit)
            return phonePage(
                visit, next: next, phone: phone, errors: errors, status: RidesWebPages.status(of: refusal))
        }
    }

    @Sendable func codePage(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let next = WebFrontEnd.localPath(request.uri.queryParameters.get("next")) ?? "/rides"
        guard let phone = WebCookie.parse(request)[Self.phoneCookie], !phone.isEmpty else {
            throw WebRedirect(to: "/rides?next=\(WebFrontEnd.queryEscaped(next))")
        }
        var notice: String?
        if request.uri.queryParameters.get("resent") == "1" { notice = rides.text("code_resent", visit) }
        return codePage(visit, phone: phone, next: next, errors: RidesPageErrors(), notice: notice)
    }

    @Sendable func verifyCode(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let form = try await web.form(request, context: context, visit: visit)
        let next = WebFrontEnd.localPath(form["next"]) ?? "/rides"
        guard let phone = WebCookie.parse(request)[Self.phoneCookie], !phone.isEmpty else {
            throw WebRedirect(to: "/rides?next=\(WebFrontEnd.queryEscaped(next))")
        }
        do {
            let signedIn = try await rides.signIn.verifyCode(
                phone: phone, code: form["code"] ?? "", clientIP: context.clientIP)
            return web.redirect(
                next, visit: visit,
                cookies: [
                    web.sessionCookie(token: signedIn.sessionToken, expiresAt: signedIn.expiresAt),
                    WebCookie.setting(Self.phoneCookie, "", maxAge: 0, secure: web.secureCookies),
                ])
        } catch let refusal as ConciergeError {
            var errors = RidesPageErrors()
            errors.add(rides.sentence(refusal, visit), field: "code")
            return codePage(visit, phone: phone, next: next, errors: errors, status: RidesWebPages.status(of: refusal))
        }
    }

    /// Ends the session (as `POST /rides/logout` does) and forgets the cookie.
    @Sendable func signOut(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        _ = try await web.form(request, context: context, visit: visit)
        if let session = try? await rides.signIn.authenticate(token: visit.sessionToken) {
            try await rides.signIn.logout(session)
        }
        return web.redirect("/rides?signedOut=1", visit: visit, cookies: [web.signedOutCookie()])
    }

    // MARK: Pages

    func phonePage(
        _ visit: WebVisit, next: String, phone: String = "", errors: RidesPageErrors = RidesPageErrors(),
        status: HTTPResponse.Status = .ok
    ) -> Response {
        var data = errors.context
        data["next"] = next
        data["phone"] = phone
        if visit.path.contains("signedOut=1") { data["notice"] = rides.text("signed_out", visit) }
        return web.page(
            "rides/sign-in", title: rides.text("sign_in_title", visit), data: data, visit: visit, status: status,
            styles: ["rides.css"], address: "/rides")
    }

    func codePage(
        _ visit: WebVisit, phone: String, next: String, errors: RidesPageErrors, notice: String? = nil,
        status: HTTPResponse.Status = .ok
    ) -> Response {
        var data = errors.context
        data["next"] = next
        data["phone"] = phone
        data["nextEscaped"] = WebFrontEnd.queryEscaped(next)
        data["sentTo"] = rides.text("code_sent_to", visit, ["phone": phone])
        if let notice { data["notice"] = notice }
        return web.page(
            "rides/code", title: rides.text("code_title", visit), data: data, visit: visit, status: status,
            styles: ["rides.css"])
    }
}
