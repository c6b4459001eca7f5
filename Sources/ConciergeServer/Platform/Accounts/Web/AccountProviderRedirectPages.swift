import ConciergeCore
import Foundation
import HTTPTypes
import Hummingbird

/// Production's "Continue with Apple/Google" without the providers' scripts: the button goes to
/// `/account/social/start`, which sends the browser to the provider's authorization page with
/// `response_mode=form_post`, a fresh `state` and `nonce`; the provider posts the ID token back
/// to `/account/social/callback`, which signs in through the same `AccountService` call as every
/// other ID token (nonce checked by the verifier).
///
/// The callback is a cross-site POST from the provider, so it cannot carry our CSRF field and
/// our `SameSite=Lax` cookies are not sent with it. Its protection is the state cookie, set here
/// with `SameSite=None; Secure` so that it *is* sent: the posted `state` must equal the cookie's,
/// which ties the answer to the browser that started the sign-in (an attacker's token posted
/// from another browser finds no cookie — no login CSRF). A cookie-less HMAC of the state alone
/// would prove we issued it but not that this browser asked for it, so the cookie is the choice.
/// Providers accept only https redirect URIs (production's public URL is https), so `Secure`
/// costs nothing there; dev mode uses the dev identity provider's page instead.
extension AccountPages {
    static let stateCookie = "concierge_oidc_state"
    static let stateLifetime = 600

    /// The client id (the first configured audience) of a provider with the redirect flow.
    func clientID(_ provider: IdentityProvider) -> String? {
        switch provider {
        case .google: googleClientID
        case .apple: appleClientID
        case .oidc: nil
        }
    }

    var redirectURI: String { publicURL + "/account/social/callback" }

    @Sendable func providerStart(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let provider = try Self.provider(request.uri.queryParameters.get("provider"))
        guard let clientID = clientID(provider) else { throw HTTPError(.notFound) }
        let state = web.random.token(byteCount: 24)
        let nonce = web.random.token(byteCount: 24)
        let next = Self.next(request) ?? ""
        let payload = [provider.rawValue, state, nonce, next.utf8.lowercaseHex].joined(separator: "|")
        let cookie =
            "\(Self.stateCookie)=\(payload)|\(web.hasher.hash(payload, purpose: "web-oidc-state")); "
            + "Path=/account/social; HttpOnly; SameSite=None; Secure; Max-Age=\(Self.stateLifetime)"
        let parameters: [(String, String)] =
            switch provider {
            case .apple:
                [
                    ("response_type", "code id_token"), ("response_mode", "form_post"), ("client_id", clientID),
                    ("redirect_uri", redirectURI), ("scope", "email"), ("nonce", nonce), ("state", state),
                ]
            default:
                [
                    ("response_type", "id_token"), ("client_id", clientID), ("redirect_uri", redirectURI),
                    ("scope", "openid email"), ("nonce", nonce), ("state", state), ("response_mode", "form_post"),
                ]
            }
        let base =
            provider == .apple
            ? "https://appleid.apple.com/auth/authorize" : "https://accounts.google.com/o/oauth2/v2/auth"
        let query = parameters.map { "\($0.0)=\(WebFrontEnd.queryEscaped($0.1))" }.joined(separator: "&")
        return web.redirect("\(base)?\(query)", visit: visit, cookies: [cookie])
    }

    @Sendable func providerCallback(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let buffer = try await request.body.collect(upTo: context.maxUploadSize)
        let form = WebForm(body: String(buffer: buffer))
        let cleared = "\(Self.stateCookie)=; Path=/account/social; HttpOnly; SameSite=None; Secure; Max-Age=0"
        func refused(_ message: String, status: HTTPResponse.Status) -> Response {
            var page = signInForm(visit: visit, next: nil, data: ["pageError": message], status: status)
            page.headers.append(HTTPField(name: .setCookie, value: cleared))
            return page
        }
        guard let started = startedSignIn(WebCookie.parse(request)[Self.stateCookie]),
            SecretHasher.constantTimeEquals(form["state"] ?? "", started.state), let idToken = form["id_token"],
            !idToken.isEmpty
        else { return refused(text("error_invalid_id_token", visit), status: .badRequest) }
        do {
            let signedIn = try await accounts.signIn(
                provider: started.provider, idToken: idToken, nonce: started.nonce, clientIP: context.clientIP)
            var response = try await convert(signedIn, visit: visit, next: started.next)
            response.headers.append(HTTPField(name: .setCookie, value: cleared))
            return response
        } catch {
            guard let refusal = AccountPageError.from(error, strings: web.strings, language: visit.language) else {
                throw error
            }
            return refused(refusal.message, status: refusal.status)
        }
    }

    /// The provider, state, nonce and return path of the sign-in this browser started, when the
    /// cookie is ours (its keyed hash holds).
    private func startedSignIn(_ cookie: String?) -> (
        provider: IdentityProvider, state: String, nonce: String, next: String?
    )? {
        guard let cookie else { return nil }
        let parts = cookie.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 5 else { return nil }
        let payload = parts[0..<4].joined(separator: "|")
        guard SecretHasher.constantTimeEquals(parts[4], web.hasher.hash(payload, purpose: "web-oidc-state")),
            let provider = try? Self.provider(parts[0])
        else { return nil }
        return (provider, parts[1], parts[2], WebFrontEnd.localPath(Self.unhex(parts[3])))
    }

    static func unhex(_ text: String) -> String? {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let end = text.index(index, offsetBy: 2, limitedBy: text.endIndex) ?? text.endIndex
            guard let byte = UInt8(text[index..<end], radix: 16) else { return nil }
            bytes.append(byte)
            index = end
        }
        return String(bytes: bytes, encoding: .utf8)
    }
}
