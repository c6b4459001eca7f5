import ConciergeCore
import ConciergeModels
import Hummingbird

/// `/stays/user/register`, `/stays/login`, `/stays/auth/refresh` and the profile, and the
/// platform's other sign-in methods under `/stays/login/…`: any trusted ID token, an SMS code.
struct StaysAccountController {
    let accounts: StaysAccountService
    let sessions: SessionService
    /// Sends the code of a phone sign-in (the platform's SMS sign-in, as rides uses it).
    let phoneCodes: SignInService
    let wire: StaysWire
    let clock: any TimeSource

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.post("user/register", use: register)
            .post("login", use: login)
            .post("login/id-token", use: loginWithIDToken)
            .post("login/phone/code", use: sendPhoneCode)
            .post("login/phone", use: loginWithPhone)
            .post("auth/refresh", use: refresh)
        group.group("user")
            .add(middleware: PlatformSessionMiddleware(sessions: sessions))
            .group(context: StaysSignedInContext.self)
            .get(":username", use: profile)
            .patch(":username", use: updateProfile)
    }

    /// 201 with the same body whether the email was free or taken (finding 11): the details as
    /// registered, `guestId` 0 (the number comes with the sign-in), "check your mail".
    @Sendable func register(request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(Stays.RegisterRequest.self, context: context)
        let registered = try await accounts.register(
            username: body.username, firstName: body.firstName, lastName: body.lastName, email: body.email,
            phone: body.phone, password: body.password, clientIP: context.clientIP)
        return try StaysEnvelope.response(
            wire.registered(registered), status: .created,
            message: "Registered. Check your mail to confirm your address, then sign in.")
    }

    @Sendable func login(request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(Stays.LoginRequest.self, context: context)
        let signedIn = try await accounts.login(
            username: body.username, password: body.password, clientIP: context.clientIP)
        return try StaysEnvelope.response(wire.user(signedIn, now: clock.now), message: "Signed in.")
    }

    @Sendable func loginWithIDToken(request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(Stays.IDTokenLoginRequest.self, context: context)
        guard let provider = IdentityProvider(rawValue: body.provider.lowercased()) else {
            throw ConciergeError(
                .invalidInput, code: "invalid_provider", message: "The provider is 'apple', 'google' or 'oidc'.")
        }
        let signedIn = try await accounts.login(
            provider: provider, idToken: body.idToken, nonce: body.nonce, clientIP: context.clientIP)
        return try StaysEnvelope.response(wire.user(signedIn, now: clock.now), message: "Signed in.")
    }

    @Sendable func sendPhoneCode(request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(Stays.PhoneCodeRequest.self, context: context)
        let sent = try await phoneCodes.sendCode(to: body.phone, clientIP: context.clientIP)
        return try StaysEnvelope.response(
            Stays.PhoneCodeSent(expiresInSeconds: sent.expiresInSeconds, resendAfterSeconds: sent.resendAfterSeconds),
            message: "Code sent.")
    }

    @Sendable func loginWithPhone(request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(Stays.PhoneLoginRequest.self, context: context)
        let signedIn = try await accounts.login(phone: body.phone, code: body.code, clientIP: context.clientIP)
        return try StaysEnvelope.response(wire.user(signedIn, now: clock.now), message: "Signed in.")
    }

    @Sendable func refresh(request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(Stays.RefreshRequest.self, context: context)
        let signedIn = try await accounts.refresh(body.refreshToken)
        return try StaysEnvelope.response(wire.user(signedIn, now: clock.now), message: "Token refreshed.")
    }

    @Sendable func profile(request: Request, context: StaysSignedInContext) async throws -> Response {
        let guest = try await ownGuest(context)
        return try StaysEnvelope.response(wire.profile(guest))
    }

    @Sendable func updateProfile(request: Request, context: StaysSignedInContext) async throws -> Response {
        let guest = try await ownGuest(context)
        let body = try await request.decodePatch(
            Stays.ProfileUpdate.self, context: context, fixed: Self.fixedProfileFields, code: "validation")
        let updated = try await accounts.updateProfile(
            guest: guest, firstName: body.firstName, lastName: body.lastName, phone: body.phone)
        return try StaysEnvelope.response(wire.profile(updated), message: "Profile updated.")
    }

    /// Profile fields a guest may expect to change here but cannot, and why.
    static let fixedProfileFields = [
        "email":
            "The email address cannot be changed through the profile: it is where your confirmations go and how you sign in.",
        "username": "The username cannot be changed: it is how you sign in.",
        "guestId": "The guest id is given by the hotel and cannot be changed.",
    ]

    /// Only the signed-in guest's own profile exists for them; another's is a 404.
    private func ownGuest(_ context: StaysSignedInContext) async throws -> StaysGuest {
        let username = try context.parameters.require("username")
        let guest = try await accounts.guest(accountID: context.session.accountID)
        guard username.lowercased() == guest.username else {
            throw ConciergeError(.notFound, code: "not_found", message: "There is no such user among yours.")
        }
        return guest
    }
}
