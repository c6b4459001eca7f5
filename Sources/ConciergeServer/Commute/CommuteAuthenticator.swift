import ConciergeCore
import ConciergeProviders
import ConciergeStore
import Hummingbird

/// Who is asking: any Concierge session (a rides token, a JWT access token) or, as the seed's
/// Clerk sign-in sends it, an ID token of a configured OpenID Connect issuer. An ID token's
/// (issuer, subject) finds its account; the first time, the platform's ID-token sign-in makes
/// or joins one, exactly as `/account/sign-in/id-token` would.
struct CommuteAuthenticator: Sendable {
    let sessions: SessionService
    let accounts: AccountService
    let store: SQLCommuteStore
    let idTokens: (any IDTokenVerifier)?

    func accountID(_ request: Request, context: AppRequestContext) async throws -> String {
        try await caller(request, context: context).accountID
    }

    /// The account and, for a Concierge session, that session (an ID token has none).
    func caller(_ request: Request, context: AppRequestContext) async throws -> (accountID: String, sessionID: String?)
    {
        let token = SessionMiddleware.bearerToken(request.headers[.authorization])
        do {
            let session = try await sessions.authenticate(token: token).session
            return (session.accountID, session.id)
        } catch let error as ConciergeError where error.category == .unauthorized {
            guard let token, let idTokens, token.split(separator: ".").count == 3 else { throw error }
            let identity: VerifiedIdentity
            do {
                identity = try await idTokens.verify(token, provider: .oidc, nonce: nil)
            } catch {
                throw ConciergeError.sessionExpired
            }
            if let known = try await store.accountID(oidcCredential: identity.credentialIdentifier) {
                return (known, nil)
            }
            let account = try await accounts.signIn(
                provider: .oidc, idToken: token, nonce: nil, clientIP: context.clientIP
            ).account.id
            return (account, nil)
        }
    }
}
