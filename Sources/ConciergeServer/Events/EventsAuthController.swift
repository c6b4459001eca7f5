import ConciergeCore
import ConciergeModels
import Foundation
import Hummingbird

/// `/events/api/auth/*`: the seed's sign-up, sign-in, social sign-in, token check and email
/// verification, plus resend, password reset and sign-out, on the platform's accounts; the
/// platform's other sign-in methods (any trusted ID token, an SMS code) are in
/// `EventsAuthController+SignInMethods`. Each sign-in opens one session named by a 7-day JWT.
struct EventsAuthController {
    let accounts: EventsAccounts

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        let auth = group.group("api/auth")
        auth.post("signup", use: signUp)
        auth.post("signin", use: signIn)
        auth.post("social", use: social)
        auth.post("id-token", use: signInWithIDToken)
        auth.post("phone/code", use: sendPhoneCode)
        auth.post("phone", use: signInWithPhone)
        auth.post("verify-email", use: verifyEmail)
        auth.post("resend-verification", use: resendVerification)
        auth.post("forgot-password", use: forgotPassword)
        auth.post("reset-password", use: resetPassword)
        auth.group()
            .add(middleware: PlatformSessionMiddleware(sessions: accounts.sessions))
            .group(context: EventsSignedInContext.self)
            .post("verify", use: verify)
            .post("signout", use: signOut)
    }

    /// 201 with the same body whether the address was free or taken (finding 11 of the
    /// 2026-11-27 review): no user and no token, "check your mail"; the owner of a taken address
    /// is mailed instead. No session is opened (a taken address has none to give, so the answer
    /// carries none either); the buyer signs in next, with the same email and password.
    @Sendable func signUp(request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(Events.SignUpRequest.self, context: context)
        _ = try await accounts.accounts.registerWithoutSession(
            email: body.email, username: nil, password: body.password, name: body.name, clientIP: context.clientIP,
            links: accounts.links)
        return try jsonResponse(Self.checkYourMail, status: .created)
    }

    static let checkYourMail = Events.AuthResponse(
        success: true, user: nil, token: nil,
        message:
            "Check your mail: we sent a link to confirm your address. Sign in with your email and password.")

    @Sendable func signIn(request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(Events.SignInRequest.self, context: context)
        let signedIn = try await accounts.accounts.signIn(
            login: body.email, password: body.password, clientIP: context.clientIP, vertical: EventsService.vertical,
            kind: .access)
        return try jsonResponse(Self.authResponse(signedIn.account, token: signedIn.session.accessToken))
    }

    @Sendable func social(request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(Events.SocialSignInRequest.self, context: context)
        guard let provider = IdentityProvider(rawValue: body.provider), provider != .oidc else {
            throw ConciergeError(
                .invalidInput, code: "invalid_provider", message: "The provider is 'google' or 'apple'.")
        }
        let signedIn = try await accounts.accounts.signIn(
            provider: provider, idToken: body.token, nonce: nil, clientIP: context.clientIP,
            vertical: EventsService.vertical, kind: .access)
        return try jsonResponse(Self.authResponse(signedIn.account, token: signedIn.session.accessToken))
    }

    @Sendable func verify(request: Request, context: EventsSignedInContext) async throws -> Response {
        let account = try await accounts.accounts.account(id: context.accountID)
        let token = SessionMiddleware.bearerToken(request.headers[.authorization])
        return try jsonResponse(Self.authResponse(account, token: token))
    }

    @Sendable func verifyEmail(request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(Events.VerifyEmailRequest.self, context: context)
        guard !body.token.isEmpty, body.token.count <= 200 else { throw ConciergeError.invalidAccountToken }
        // A session of the account that asked for the link shows the one who signed up holds the
        // mailbox; without one, what was made before the proof goes (MailboxProof, finding 1).
        let bearer = SessionMiddleware.bearerToken(request.headers[.authorization])
        let asking = bearer == nil ? nil : try? await accounts.sessions.authenticate(token: bearer)
        try await accounts.accounts.verifyEmail(token: body.token, sessionAccountID: asking?.session.accountID)
        return try jsonResponse(Events.Success())
    }

    @Sendable func resendVerification(request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(Events.EmailRequest.self, context: context)
        try await accounts.accounts.resendVerification(
            email: body.email, clientIP: context.clientIP, links: accounts.links)
        return try jsonResponse(Events.Success())
    }

    @Sendable func forgotPassword(request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(Events.EmailRequest.self, context: context)
        try await accounts.accounts.forgotPassword(email: body.email, clientIP: context.clientIP, links: accounts.links)
        return try jsonResponse(Events.Success())
    }

    @Sendable func resetPassword(request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(Events.ResetPasswordRequest.self, context: context)
        guard !body.token.isEmpty, body.token.count <= 200 else { throw ConciergeError.invalidAccountToken }
        try await accounts.accounts.resetPassword(token: body.token, password: body.password)
        return try jsonResponse(Events.Success())
    }

    @Sendable func signOut(request: Request, context: EventsSignedInContext) async throws -> Response {
        try await accounts.sessions.revoke(context.session)
        return try jsonResponse(Events.Success())
    }

    static func authResponse(_ account: AccountOverview, token: String?) -> Events.AuthResponse {
        Events.AuthResponse(success: true, user: user(account), token: token)
    }

    static func user(_ account: AccountOverview) -> Events.User {
        let emails = account.methods.filter { $0.kind == .email }
        let email = emails.first { $0.verified } ?? emails.first
        return Events.User(
            id: account.id, email: email?.identifier ?? "", name: account.displayName ?? "",
            created_at: WireDate.string(from: account.createdAt), emailVerified: email?.verified ?? false,
            phone: account.methods.first { $0.kind == .phone }?.identifier)
    }
}
