import ConciergeCore
import ConciergeModels
import Hummingbird

/// The platform's sign-in methods beyond the seed's: an ID token of any issuer the platform
/// trusts (`/api/auth/social` keeps the seed's Google and Apple), and an SMS code (send, then
/// sign in), each through the one `AccountService` and answered with the seed's `AuthResponse`.
extension EventsAuthController {
    @Sendable func signInWithIDToken(request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(Events.IDTokenSignInRequest.self, context: context)
        guard let provider = IdentityProvider(rawValue: body.provider.lowercased()) else {
            throw ConciergeError(
                .invalidInput, code: "invalid_provider", message: "The provider is 'apple', 'google' or 'oidc'.")
        }
        let signedIn = try await accounts.accounts.signIn(
            provider: provider, idToken: body.idToken, nonce: body.nonce, clientIP: context.clientIP,
            vertical: EventsService.vertical, kind: .access)
        return try jsonResponse(Self.authResponse(signedIn.account, token: signedIn.session.accessToken))
    }

    @Sendable func sendPhoneCode(request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(Events.PhoneCodeRequest.self, context: context)
        let sent = try await accounts.phoneCodes.sendCode(to: body.phone, clientIP: context.clientIP)
        return try jsonResponse(
            Events.PhoneCodeSent(expiresInSeconds: sent.expiresInSeconds, resendAfterSeconds: sent.resendAfterSeconds))
    }

    @Sendable func signInWithPhone(request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(Events.PhoneSignInRequest.self, context: context)
        let signedIn = try await accounts.accounts.signIn(
            phone: body.phone, code: body.code, clientIP: context.clientIP, vertical: EventsService.vertical,
            kind: .access)
        return try jsonResponse(Self.authResponse(signedIn.account, token: signedIn.session.accessToken))
    }
}
