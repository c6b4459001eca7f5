public import ConciergeCore
import Foundation
import JWTKit

/// HS256 session access tokens with jwt-kit. The key is derived from the server secret
/// (an HMAC-SHA256 under it, of a label naming this use), so every instance sharing the secret
/// accepts the others' tokens, and the raw secret is never a signing key itself.
public struct JWTSessionTokenSigner: SessionTokenSigner {
    private let keys: JWTKeyCollection

    public init(hasher: SecretHasher) async {
        let derived = Array(hasher.hash("concierge session access tokens v1", purpose: "jwt-signing-key").utf8)
        keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: derived), digestAlgorithm: .sha256)
    }

    /// Times are whole seconds (`iat` and `nbf` the second the token was issued in, `exp` the
    /// second before its end), so clients that read them as integers can.
    public func sign(_ claims: SessionClaims) async throws -> String {
        let issuedAt = claims.issuedAt.jwtWholeSeconds
        return try await keys.sign(
            SessionAccessPayload(
                sid: claims.sessionID, sub: SubjectClaim(value: claims.accountID),
                iat: IssuedAtClaim(value: issuedAt), nbf: NotBeforeClaim(value: issuedAt),
                exp: ExpirationClaim(value: claims.expiresAt.jwtWholeSeconds)))
    }

    public func verify(_ token: String) async -> SessionClaims? {
        guard let payload = try? await keys.verify(token, as: SessionAccessPayload.self) else { return nil }
        return SessionClaims(
            sessionID: payload.sid, accountID: payload.sub.value, issuedAt: payload.iat.value,
            expiresAt: payload.exp.value)
    }
}

/// The access token's claims. `verify(using:)` checks nothing on purpose: expiry is judged by
/// `SessionService` against its injected clock, and the session row decides the rest.
struct SessionAccessPayload: JWTPayload {
    let sid: String
    let sub: SubjectClaim
    let iat: IssuedAtClaim
    /// Optional so tokens issued before it was added still verify.
    var nbf: NotBeforeClaim?
    let exp: ExpirationClaim

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
