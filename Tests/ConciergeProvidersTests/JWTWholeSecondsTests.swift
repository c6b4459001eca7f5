import ConciergeCore
import ConciergeProviders
import Foundation
import Testing

/// Every JWT the server issues writes `iat`, `nbf` and `exp` as whole seconds: client libraries
/// that read NumericDate as an integer failed on `1795759567.3567882`.
@Suite struct JWTWholeSecondsTests {
    static let issuedAt = Date(timeIntervalSince1970: 1_795_759_567.356_788_2)

    @Test func aSessionAccessTokenCarriesWholeSeconds() async throws {
        let signer = await JWTSessionTokenSigner(hasher: SecretHasher(secret: "whole-seconds-secret-0123456789"))
        let token = try await signer.sign(
            SessionClaims(
                sessionID: "ses_1", accountID: "acc_1", issuedAt: Self.issuedAt,
                expiresAt: Self.issuedAt.addingTimeInterval(900)))
        let payload = try Self.payload(token)
        #expect(payload["iat"] == "1795759567")
        #expect(payload["nbf"] == "1795759567")
        #expect(payload["exp"] == "1795760467")
        #expect(await signer.verify(token)?.sessionID == "ses_1")
    }

    @Test func aDevIDTokenCarriesWholeSeconds() async throws {
        let dev = await DevIdentityProvider(clock: ManualTimeSource(Self.issuedAt))
        let token = try await dev.idToken(
            provider: .google, subject: "dev-1", email: "dev@example.ch", emailVerified: true, nonce: nil,
            audience: nil, configured: [])
        let payload = try Self.payload(token)
        #expect(payload["iat"] == "1795759567")
        #expect(payload["nbf"] == "1795759567")
        #expect(payload["exp"] == "1795763167")
    }

    /// The payload's time claims as their literal JSON text, so `1795759567.0` or a fraction shows.
    static func payload(_ token: String) throws -> [String: String] {
        let parts = token.split(separator: ".")
        try #require(parts.count == 3)
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        let json = String(decoding: try #require(Data(base64Encoded: base64)), as: UTF8.self)
        var claims: [String: String] = [:]
        for name in ["iat", "nbf", "exp"] {
            guard let range = json.range(of: #""\#(name)":([0-9.eE+-]+)"#, options: .regularExpression) else {
                continue
            }
            claims[name] = String(json[range].dropFirst(name.count + 3))
        }
        return claims
    }
}
