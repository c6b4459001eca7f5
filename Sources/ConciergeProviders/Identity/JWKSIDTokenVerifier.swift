public import ConciergeCore
import Foundation
import JWTKit

/// Verifies Apple, Google and OpenID Connect ID tokens with jwt-kit: the signature against the
/// issuer's JWKS, then `iss`, `aud` (or Clerk's `azp` when there is no `aud`), `exp`, `nbf` and
/// the nonce when the client sent one, against the injected clock with a minute of skew.
/// In dev mode a `DevIdentityProvider` is trusted too, for the three providers.
public struct JWKSIDTokenVerifier: IDTokenVerifier {
    private let issuers: [IDTokenIssuer]
    private let dev: DevIdentityProvider?
    private let clock: any TimeSource
    static let clockSkew: TimeInterval = 60

    public init(issuers: [IDTokenIssuer], dev: DevIdentityProvider?, clock: any TimeSource) {
        self.issuers = issuers
        self.dev = dev
        self.clock = clock
    }

    public func verify(_ token: String, provider: IdentityProvider, nonce: String?) async throws -> VerifiedIdentity {
        guard token.count <= 16_384, let header = Self.header(of: token) else {
            throw ConciergeError.invalidIDToken("the token is malformed")
        }
        let payload: IDTokenPayload
        let issuer: (canonical: String, audiences: [String])
        if let dev, header.kid == DevIdentityProvider.keyID {
            guard let verified = try? await dev.keys.verify(token, as: IDTokenPayload.self),
                let expected = dev.issuer(for: provider), verified.iss == expected
            else { throw ConciergeError.invalidIDToken("the signature or issuer is wrong") }
            payload = verified
            issuer = (expected, dev.audiences(for: provider, configured: issuers))
        } else {
            // Providers sign with RS256 only; anything else (none, HS256 with a public key) is refused.
            guard header.alg == "RS256" else { throw ConciergeError.invalidIDToken("the signing algorithm is wrong") }
            guard let unverifiedIssuer = Self.unverifiedIssuer(of: token),
                let config = issuers.first(where: { $0.provider == provider && $0.issuers.contains(unverifiedIssuer) })
            else { throw ConciergeError.invalidIDToken("the issuer is not one we accept") }
            let keys = try await config.keys.keys(for: header.kid)
            do {
                payload = try await keys.verify(token, as: IDTokenPayload.self)
            } catch {
                throw ConciergeError.invalidIDToken("the signature is wrong")
            }
            guard config.issuers.contains(payload.iss) else {
                throw ConciergeError.invalidIDToken("the issuer is not one we accept")
            }
            issuer = (config.issuers[0], config.audiences)
        }
        try check(payload, audiences: issuer.audiences, nonce: nonce)
        return VerifiedIdentity(
            issuer: issuer.canonical, subject: payload.sub, email: payload.email,
            emailVerified: payload.email != nil && payload.emailVerified, name: payload.name)
    }

    private func check(_ payload: IDTokenPayload, audiences: [String], nonce: String?) throws {
        let now = clock.now
        let audience = payload.aud?.value ?? payload.azp.map { [$0] } ?? []
        guard audience.contains(where: audiences.contains) else {
            throw ConciergeError.invalidIDToken("it was issued for another app")
        }
        guard now.addingTimeInterval(-Self.clockSkew) < payload.exp else {
            throw ConciergeError.invalidIDToken("it has expired")
        }
        if let notBefore = payload.nbf, now.addingTimeInterval(Self.clockSkew) < notBefore {
            throw ConciergeError.invalidIDToken("it is not valid yet")
        }
        if let nonce, payload.nonce != nonce {
            throw ConciergeError.invalidIDToken("the nonce does not match")
        }
        guard !payload.sub.isEmpty else { throw ConciergeError.invalidIDToken("it names no subject") }
    }

    struct Header: Decodable {
        let alg: String?
        let kid: String?
    }

    static func header(of token: String) -> Header? {
        segment(0, of: token).flatMap { try? JSONDecoder().decode(Header.self, from: $0) }
    }

    /// The `iss` before the signature is checked: only to choose whose keys check the signature.
    static func unverifiedIssuer(of token: String) -> String? {
        struct Issuer: Decodable { let iss: String }
        return segment(1, of: token).flatMap { try? JSONDecoder().decode(Issuer.self, from: $0).iss }
    }

    private static func segment(_ index: Int, of token: String) -> Data? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var text = parts[index].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        text += String(repeating: "=", count: (4 - text.count % 4) % 4)
        return Data(base64Encoded: text)
    }
}
