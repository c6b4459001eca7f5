public import ConciergeCore
import Foundation
import JWTKit

/// The embedded identity provider of dev mode: signs ID tokens for Google, Apple and a dev
/// OpenID Connect issuer with an ES256 key generated at start, so social sign-in works offline.
/// Only a verifier built with this value trusts the key, and the server builds it in dev mode
/// only; the key dies with the process.
public struct DevIdentityProvider: Sendable {
    public static let keyID = "concierge-dev-identity"
    /// The issuer of dev OpenID Connect tokens when no OIDC issuer is configured.
    public static let devIssuer = "https://dev-identity.concierge.invalid"
    /// The audience of dev tokens when the request names none and none is configured.
    public static let devAudience = "concierge-dev"

    let keys: JWTKeyCollection
    private let clock: any TimeSource

    public init(clock: any TimeSource) async {
        keys = JWTKeyCollection()
        await keys.add(ecdsa: ES256PrivateKey(), kid: JWKIdentifier(string: Self.keyID))
        self.clock = clock
    }

    /// A signed ID token as the provider would issue it, valid for an hour.
    public func idToken(
        provider: IdentityProvider, subject: String, email: String?, emailVerified: Bool, nonce: String?,
        audience: String?, configured: [IDTokenIssuer]
    ) async throws -> String {
        let now = clock.now.jwtWholeSeconds
        let audience = audience ?? audiences(for: provider, configured: configured).first ?? Self.devAudience
        let payload = IDTokenPayload(
            iss: issuer(for: provider) ?? Self.devIssuer, sub: subject, aud: [audience],
            exp: now.addingTimeInterval(3600), nbf: now, iat: now, nonce: nonce, email: email,
            emailVerified: emailVerified)
        return try await keys.sign(payload, kid: JWKIdentifier(string: Self.keyID))
    }

    func issuer(for provider: IdentityProvider) -> String? {
        switch provider {
        case .apple: IDTokenIssuer.appleIssuer
        case .google: IDTokenIssuer.googleIssuers[0]
        case .oidc: Self.devIssuer
        }
    }

    /// The configured audiences of the provider, plus the dev audience.
    func audiences(for provider: IdentityProvider, configured: [IDTokenIssuer]) -> [String] {
        configured.filter { $0.provider == provider }.flatMap(\.audiences) + [Self.devAudience]
    }
}
