import ConciergeCore
import ConciergeProviders
import Foundation
import Hummingbird

/// "Continue with Apple/Google" in dev mode, without a provider's script: a small page where the
/// person types the address the provider would vouch for; the server mints an ID token with the
/// dev identity provider (the one `/dev/id-token` uses) and signs in or links with it through
/// the same service calls a real token takes, so linking by verified email works as it would.
extension AccountPages {
    @Sendable func devProviderPage(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let provider = try Self.provider(request.uri.queryParameters.get("provider"))
        let intent = request.uri.queryParameters.get("intent") == "link" ? "link" : "sign-in"
        if intent == "link" { _ = try web.requireSignIn(visit) }
        return devProviderForm(
            provider: provider, intent: intent, next: Self.next(request), visit: visit, data: ["verified": true])
    }

    @Sendable func devProviderSignIn(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let form = try await web.form(request, context: context, visit: visit)
        let provider = try Self.provider(form["provider"])
        let intent = form["intent"] == "link" ? "link" : "sign-in"
        let next = WebFrontEnd.localPath(form["next"])
        let email = form["email"] ?? ""
        let verified = form["verified"] == "true"
        var values: [String: Any] = ["email": email, "verified": verified]
        guard let devIdentity else { throw HTTPError(.notFound) }
        do {
            let address = try LoginNormalization.email(email)
            let token = try await devIdentity.idToken(
                provider: provider, subject: "dev-\(address)", email: address, emailVerified: verified, nonce: nil,
                audience: nil, configured: issuers)
            if intent == "link" {
                let accountID = try requireAccount(visit)
                _ = try await accounts.link(
                    accountID: accountID, proof: .idToken(provider: provider, token: token, nonce: nil),
                    clientIP: context.clientIP)
                return web.redirect("/account?done=linked", visit: visit)
            }
            let signedIn = try await accounts.signIn(
                provider: provider, idToken: token, nonce: nil, clientIP: context.clientIP)
            return try await convert(signedIn, visit: visit, next: next)
        } catch {
            guard let refusal = AccountPageError.from(error, strings: web.strings, language: visit.language) else {
                throw error
            }
            values.merge(refusal.data) { _, new in new }
            return devProviderForm(
                provider: provider, intent: intent, next: next, visit: visit, data: values, status: refusal.status)
        }
    }

    func devProviderForm(
        provider: IdentityProvider, intent: String, next: String?, visit: WebVisit, data: [String: Any],
        status: HTTPResponse.Status = .ok
    ) -> Response {
        let name = text(provider == .apple ? "method_apple" : "method_google", visit)
        func worded(_ key: String) -> String { text(key, visit).replacingOccurrences(of: "{provider}", with: name) }
        var data = data
        data["provider"] = provider.rawValue
        data["intent"] = intent
        data["next"] = next ?? ""
        data["heading"] = worded("dev_title")
        data["lead"] = worded("dev_lead")
        data["emailLabel"] = worded("dev_email_label")
        data["verifiedLabel"] = worded("dev_verified_label")
        return web.page(
            "account/dev-provider", title: worded("dev_title"), data: data, visit: visit, status: status,
            styles: ["account.css"])
    }

    /// Apple or Google (the buttons' providers); anything else is no page.
    static func provider(_ raw: String?) throws -> IdentityProvider {
        switch raw {
        case "apple": .apple
        case "google": .google
        default: throw HTTPError(.notFound)
        }
    }
}
