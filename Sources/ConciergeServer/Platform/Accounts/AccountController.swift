import ConciergeCore
import ConciergeModels
import Hummingbird

/// `/account`: the platform's sign-up, sign-in (password, ID token), refresh, sign-out, email
/// verification, password reset, linking, reading and deleting. Every vertical's session works
/// on the signed-in routes, rides' opaque tokens included.
struct AccountController {
    let accounts: AccountService
    let sessions: SessionService

    func addRoutes(to router: Router<AppRequestContext>) {
        let group = router.group("account")
        group.post("sign-up", use: signUp)
        group.post("sign-in", use: signIn)
        group.post("sign-in/id-token", use: signInWithIDToken)
        group.post("token/refresh", use: refresh)
        group.post("email/verify", use: verifyEmail)
        group.post("password/forgot", use: forgotPassword)
        group.post("password/reset", use: resetPassword)
        group.group()
            .add(middleware: PlatformSessionMiddleware(sessions: sessions))
            .group(context: AccountContext.self)
            .get(use: account)
            .delete(use: deleteAccount)
            .post("link", use: link)
            .post("sign-out", use: signOut)
            .post("email/resend", use: resendVerification)
    }

    /// 202 "check your mail" whether the address was free or taken (finding 11): same status,
    /// same body, a bcrypt either way, and no session (it would be a row nobody uses); the client
    /// signs in next.
    @Sendable func signUp(request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(AccountWire.SignUpRequest.self, context: context)
        _ = try await accounts.registerWithoutSession(
            email: body.email, username: body.username, password: body.password, name: body.name,
            clientIP: context.clientIP)
        return try jsonResponse(AccountWire.SignUpAcceptedResponse(email: body.email != nil), status: .accepted)
    }

    @Sendable func signIn(request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(AccountWire.SignInRequest.self, context: context)
        let signedIn = try await accounts.signIn(login: body.login, password: body.password, clientIP: context.clientIP)
        return try jsonResponse(AccountWire.SessionResponse(account: signedIn.account, session: signedIn.session))
    }

    @Sendable func signInWithIDToken(request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(AccountWire.IDTokenSignInRequest.self, context: context)
        let signedIn = try await accounts.signIn(
            provider: try AccountWire.provider(body.provider), idToken: body.idToken, nonce: body.nonce,
            clientIP: context.clientIP)
        return try jsonResponse(AccountWire.SessionResponse(account: signedIn.account, session: signedIn.session))
    }

    @Sendable func refresh(request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(AccountWire.RefreshRequest.self, context: context)
        return try jsonResponse(
            AccountWire.SessionResponse(account: nil, session: try await sessions.refresh(body.refreshToken)))
    }

    @Sendable func verifyEmail(request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(AccountWire.TokenRequest.self, context: context)
        // A session of the account that asked for the link shows the one who signed up holds
        // the mailbox; without one, what was made before the proof goes (MailboxProof).
        let bearer = SessionMiddleware.bearerToken(request.headers[.authorization])
        let asking = bearer == nil ? nil : try? await sessions.authenticate(token: bearer)
        try await accounts.verifyEmail(token: body.token, sessionAccountID: asking?.session.accountID)
        return try jsonResponse(SuccessResponse())
    }

    @Sendable func forgotPassword(request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(AccountWire.EmailRequest.self, context: context)
        try await accounts.forgotPassword(email: body.email, clientIP: context.clientIP)
        return try jsonResponse(SuccessResponse())
    }

    @Sendable func resetPassword(request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(AccountWire.ResetRequest.self, context: context)
        try await accounts.resetPassword(token: body.token, password: body.password, clientIP: context.clientIP)
        return try jsonResponse(SuccessResponse())
    }

    @Sendable func account(request: Request, context: AccountContext) async throws -> Response {
        try jsonResponse(AccountWire.AccountResponse(account: .init(try await accounts.account(id: context.accountID))))
    }

    @Sendable func deleteAccount(request: Request, context: AccountContext) async throws -> Response {
        try await accounts.deleteAccount(id: context.accountID)
        return try jsonResponse(SuccessResponse())
    }

    @Sendable func link(request: Request, context: AccountContext) async throws -> Response {
        let body = try await request.decodeJSON(AccountWire.LinkRequest.self, context: context)
        let proof: AccountService.Proof
        switch (body.login, body.password, body.provider, body.idToken, body.phone, body.code) {
        case (let login?, let password?, nil, nil, nil, nil):
            proof = .password(login: login, password: password)
        case (nil, nil, let provider?, let idToken?, nil, nil):
            proof = .idToken(provider: try AccountWire.provider(provider), token: idToken, nonce: body.nonce)
        case (nil, nil, nil, nil, let phone?, let code?):
            proof = .smsCode(phone: phone, code: code)
        default:
            throw ConciergeError(
                .invalidInput, code: "invalid_request",
                message:
                    "Send one proof of the method to link: login and password, provider and idToken, or phone and code."
            )
        }
        let account = try await accounts.link(accountID: context.accountID, proof: proof, clientIP: context.clientIP)
        return try jsonResponse(AccountWire.AccountResponse(account: .init(account)))
    }

    @Sendable func signOut(request: Request, context: AccountContext) async throws -> Response {
        try await sessions.revoke(context.session)
        return try jsonResponse(SuccessResponse())
    }

    @Sendable func resendVerification(request: Request, context: AccountContext) async throws -> Response {
        try await accounts.resendVerification(accountID: context.accountID, clientIP: context.clientIP)
        return try jsonResponse(SuccessResponse())
    }
}
