import ConciergeCore
import ConciergeProviders
import Hummingbird

/// `GET /dev/id-token?provider=google|apple|oidc&email=…&emailVerified=true&sub=…&nonce=…&aud=…`:
/// an ID token from the embedded dev identity provider, so social sign-in works offline.
/// Mounted in dev mode only; only dev mode's verifier trusts its key.
struct DevIdentityController {
    let provider: DevIdentityProvider
    let configured: [IDTokenIssuer]

    struct Issued: Encodable {
        let idToken: String
    }

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("dev/id-token", use: issue)
    }

    @Sendable func issue(request: Request, context: AppRequestContext) async throws -> Response {
        // Absent means google; present-but-empty is a typo like any other name.
        let name = request.uri.queryParameters["provider"].map(String.init) ?? "google"
        // Exactly the documented names: this route is a test fixture, and a lenient one hides typos.
        guard ["google", "apple", "oidc"].contains(name) else {
            throw ConciergeError(
                .invalidInput, code: "invalid_provider", message: "provider must be google, apple or oidc.")
        }
        let provider = try AccountWire.provider(name)
        let email = request.optionalQuery("email")
        let subject = request.optionalQuery("sub") ?? email.map { "dev-\($0)" } ?? "dev-user"
        let token = try await self.provider.idToken(
            provider: provider, subject: String(subject.prefix(255)), email: email,
            emailVerified: request.optionalQuery("emailVerified") == "true", nonce: request.optionalQuery("nonce"),
            audience: request.optionalQuery("aud"), configured: configured)
        return try jsonResponse(Issued(idToken: token))
    }
}
