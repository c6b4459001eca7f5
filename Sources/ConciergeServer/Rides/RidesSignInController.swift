import ConciergeCore
import ConciergeModels
import Foundation
import Hummingbird

/// `/rides` sign-in and profile: the Veramo contract's SMS-code flow.
struct RidesSignInController {
    let signIn: SignInService
    let profiles: ProfileService

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.post("sms-code-send", use: sendCode)
        group.post("sms-code-verify", use: verifyCode)
        // A child group, so the session check covers only these routes, not later ones on `group`.
        group.group()
            .add(middleware: SessionMiddleware(signIn: signIn))
            .group(context: SignedInContext.self)
            .post("logout", use: logout)
            .get("me", use: me)
            .patch("me", use: updateMe)
    }

    @Sendable func sendCode(request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(SMSCodeSendRequest.self, context: context)
        let sent = try await signIn.sendCode(to: body.phone, clientIP: context.clientIP)
        return try jsonResponse(
            SMSCodeSendResponse(expiresInSeconds: sent.expiresInSeconds, resendAfterSeconds: sent.resendAfterSeconds))
    }

    @Sendable func verifyCode(request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(SMSCodeVerifyRequest.self, context: context)
        let signedIn = try await signIn.verifyCode(phone: body.phone, code: body.code, clientIP: context.clientIP)
        return try jsonResponse(
            SMSCodeVerifyResponse(
                customer: AuthenticatedCustomer(signedIn.customer), sessionToken: signedIn.sessionToken,
                expiresAt: WireDate.string(from: signedIn.expiresAt)))
    }

    @Sendable func logout(request: Request, context: SignedInContext) async throws -> Response {
        try await signIn.logout(context.session)
        return try jsonResponse(SuccessResponse())
    }

    @Sendable func me(request: Request, context: SignedInContext) async throws -> Response {
        try jsonResponse(CustomerProfileResponse(customer: AuthenticatedCustomer(context.customer)))
    }

    @Sendable func updateMe(request: Request, context: SignedInContext) async throws -> Response {
        let body = try await request.decodePatch(UpdateProfileRequest.self, context: context)
        let updated = try await profiles.update(
            context.customer, name: ProfileService.FieldChange(body.name), email: ProfileService.FieldChange(body.email)
        )
        return try jsonResponse(CustomerProfileResponse(customer: AuthenticatedCustomer(updated)))
    }
}

extension AuthenticatedCustomer {
    init(_ customer: Customer) {
        self.init(id: customer.id, phone: customer.phone.e164, name: customer.name, email: customer.email)
    }
}

extension ProfileService.FieldChange {
    init(_ change: UpdateProfileRequest.Change) {
        switch change {
        case .keep: self = .keep
        case .clear: self = .clear
        case .set(let value): self = .set(value)
        }
    }
}
