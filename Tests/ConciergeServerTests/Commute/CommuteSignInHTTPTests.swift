import ConciergeCore
import ConciergeModels
import ConciergeTestSupport
import CryptoExtras
import Foundation
import HummingbirdTesting
import JWTKit
import Testing

@testable import ConciergeServer

/// The seed signs in with Clerk: its session token (an OIDC ID token of a configured issuer)
/// is a bearer token for commute, and the same person gets the same account every time.
@Suite struct CommuteSignInHTTPTests {
    static let issuer = "https://clerk.commute.example"
    static let origin = "https://app.commute.example"

    struct ClerkClaims: JWTPayload {
        let iss: String
        let sub: String
        let azp: String
        let sid: String
        let exp: Int
        let iat: Int
        let nbf: Int

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    @Test func aClerkSessionTokenSignsInToCommute() async throws {
        let keys = JWTKeyCollection()
        let key = try Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048))
        await keys.add(rsa: key, digestAlgorithm: .sha256, kid: "ins_commute")
        let (modulus, exponent) = try key.publicKey.getKeyPrimitives()
        let jwks =
            #"{"keys":[{"kty":"RSA","alg":"RS256","use":"sig","kid":"ins_commute","n":"\#(modulus.base64URLEncodedString())","e":"\#(exponent.base64URLEncodedString())"}]}"#
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("commute-jwks-\(UUID()).json")
        try Data(jwks.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }

        let app = try await TestApp.make(
            engine: .sqlite,
            environment: [
                "CONCIERGE_OIDC_ISSUERS": "\(Self.issuer)|\(Self.origin)|\(file.path)", "CONCIERGE_BCRYPT_COST": "4",
            ])
        try await app.run { client in
            func token(sub: String, azp: String = Self.origin, age: TimeInterval = 0) async throws -> String {
                let now = Int(app.clock.now.timeIntervalSince1970 - age)
                return try await keys.sign(
                    ClerkClaims(
                        iss: Self.issuer, sub: sub, azp: azp, sid: "sess_1", exp: now + 60, iat: now, nbf: now - 5),
                    kid: "ins_commute")
            }
            let first = try await token(sub: "user_anna")
            let trip = try await client.createTrip(token: first)
            // A fresh token a minute later (Clerk's are short-lived) finds the same account.
            app.clock.advance(by: 50)
            let again = try await client.send(.get, "/commute/trips", token: try await token(sub: "user_anna"))
            #expect(try again.decode(CommuteTripList.self).trips.map(\.id) == [trip.id])
            let other = try await client.send(.get, "/commute/trips", token: try await token(sub: "user_ben"))
            #expect(try other.decode(CommuteTripList.self).trips.isEmpty)

            for (name, refused) in [
                ("expired", try await token(sub: "user_anna", age: 600)),
                ("another origin", try await token(sub: "user_anna", azp: "https://evil.example")),
            ] {
                let response = try await client.send(.get, "/commute/trips", token: refused)
                #expect(response.status == .unauthorized, "\(name)")
                #expect(response.errorBody?.code == "session_expired", "\(name)")
            }
        }
    }
}
