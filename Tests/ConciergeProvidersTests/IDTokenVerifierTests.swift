import ConciergeCore
import ConciergeProviders
import CryptoExtras
import Foundation
import JWTKit
import Testing

/// The ID-token verifier against the recorded claim shapes of Apple, Google and Clerk
/// (Fixtures/id_token_examples.json), re-signed with an RSA key generated here because the
/// recorded JWKS carry placeholder moduli. Keys come through the HTTP transport seam.
@Suite struct IDTokenVerifierTests {
    /// The recorded tokens were issued at this time (`iat` 1788244200).
    static let issuedAt = Date(timeIntervalSince1970: 1_788_244_200)

    @Test func appleTokensWithStringFlagsAndANonceVerify() async throws {
        let signer = try TokenSigner()
        let clock = ManualTimeSource(Self.issuedAt.addingTimeInterval(60))
        let transport = signer.jwksTransport()
        let verifier = Self.verifier(
            .apple, issuers: ["https://appleid.apple.com"], audience: "com.example.concierge",
            transport: transport, clock: clock)
        let claims = try Self.recorded("apple", "id_token_native_app")
        let token = try signer.sign(claims)
        let nonce = try #require(claims["nonce"] as? String)

        let identity = try await verifier.verify(token, provider: .apple, nonce: nonce)
        #expect(identity.issuer == "https://appleid.apple.com")
        #expect(identity.subject == "001234.0f1e2d3c4b5a69788796a5b4c3d2e1f0.1234")
        #expect(identity.email == "k7q2m9x4rt@privaterelay.appleid.com")
        #expect(identity.emailVerified)
        #expect(
            await Self.code { try await verifier.verify(token, provider: .apple, nonce: "another") }
                == "invalid_id_token")
        #expect(
            await Self.code { try await verifier.verify(token, provider: .google, nonce: nil) } == "invalid_id_token")
        #expect(await transport.requests.map(\.url) == ["https://keys.example/jwks"])
    }

    @Test func googleIssuersAreOneAndTheAudienceMustBeOurs() async throws {
        let signer = try TokenSigner()
        let clock = ManualTimeSource(Self.issuedAt.addingTimeInterval(60))
        let verifier = Self.verifier(
            .google, issuers: ["https://accounts.google.com", "accounts.google.com"],
            audience: "123456789012-serverexampleclientid.apps.googleusercontent.com",
            transport: signer.jwksTransport(),
            clock: clock)
        let bare = try signer.sign(try Self.recorded("google", "id_token_issuer_without_scheme"))
        let identity = try await verifier.verify(bare, provider: .google, nonce: nil)
        #expect(identity.issuer == "https://accounts.google.com")
        #expect(identity.emailVerified == false)  // no email in this token: nothing to vouch for

        var foreign = try Self.recorded("google", "id_token")
        foreign["aud"] = "123456789012-someoneelse.apps.googleusercontent.com"
        #expect(
            await Self.code { try await verifier.verify(try signer.sign(foreign), provider: .google, nonce: nil) }
                == "invalid_id_token")
        clock.advance(by: 3600 + 61)
        let expired = try signer.sign(try Self.recorded("google", "id_token"))
        #expect(
            await Self.code { try await verifier.verify(expired, provider: .google, nonce: nil) } == "invalid_id_token")
    }

    @Test func clerkTokensWithoutAudienceAreCheckedByAuthorizedPartyAndNotBefore() async throws {
        let signer = try TokenSigner()
        let clock = ManualTimeSource(Self.issuedAt.addingTimeInterval(10))
        let verifier = Self.verifier(
            .oidc, issuers: ["https://clerk.example.com"], audience: "https://app.example.com",
            transport: signer.jwksTransport(), clock: clock)
        let claims = try Self.recorded("clerk", "session_token_v2")
        let identity = try await verifier.verify(try signer.sign(claims), provider: .oidc, nonce: nil)
        #expect(identity.subject == "user_2EXAMPLEu3v4w5x6y7z8a9b0c1d2")
        var early = claims
        early["nbf"] = Int(clock.now.timeIntervalSince1970) + 120
        #expect(
            await Self.code { try await verifier.verify(try signer.sign(early), provider: .oidc, nonce: nil) }
                == "invalid_id_token")
    }

    @Test func keysAreKeptForMaxAgeAndAnUnknownKeyRefetchesAtMostOnceAMinute() async throws {
        let signer = try TokenSigner()
        let clock = ManualTimeSource(Self.issuedAt.addingTimeInterval(60))
        let transport = signer.jwksTransport(cacheControl: "public, max-age=600, must-revalidate")
        let verifier = Self.verifier(
            .google, issuers: ["https://accounts.google.com"],
            audience: "123456789012-serverexampleclientid.apps.googleusercontent.com", transport: transport,
            clock: clock)
        let token = try signer.sign(try Self.recorded("google", "id_token"))
        _ = try await verifier.verify(token, provider: .google, nonce: nil)
        _ = try await verifier.verify(token, provider: .google, nonce: nil)
        #expect(await transport.requests.count == 1)

        // A key we have not seen (rotation, or a made-up kid): a minute after the last fetch,
        // one refetch serves every attempt until the next minute.
        clock.advance(by: 61)
        let stranger = try TokenSigner(kid: "rotated-in")
        let unknown = try stranger.sign(try Self.recorded("google", "id_token"))
        for _ in 0..<3 { _ = await Self.code { try await verifier.verify(unknown, provider: .google, nonce: nil) } }
        #expect(await transport.requests.count == 2)  // one refetch for the unknown kid, not three

        clock.advance(by: 601)
        _ = try await verifier.verify(token, provider: .google, nonce: nil)
        #expect(await transport.requests.count == 3)  // max-age passed
    }

    @Test func onlyRS256IsAcceptedFromProviders() async throws {
        let signer = try TokenSigner()
        let transport = signer.jwksTransport()
        let verifier = Self.verifier(
            .google, issuers: ["https://accounts.google.com"],
            audience: "123456789012-serverexampleclientid.apps.googleusercontent.com", transport: transport,
            clock: ManualTimeSource(Self.issuedAt))
        let claims = try Self.recorded("google", "id_token")
        for alg in ["HS256", "none", "ES256"] {
            let forged = try signer.sign(claims, alg: alg)
            #expect(
                await Self.code { try await verifier.verify(forged, provider: .google, nonce: nil) }
                    == "invalid_id_token")
        }
        #expect(await transport.requests.isEmpty)
    }

    @Test func keysCanComeFromAFile() async throws {
        let signer = try TokenSigner()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("jwks-\(UUID().uuidString).json")
        try Data(signer.jwks.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let clock = ManualTimeSource(Self.issuedAt)
        let issuer = IDTokenIssuer(
            provider: .oidc, issuers: ["https://clerk.example.com"], audiences: ["https://app.example.com"],
            keys: JWKSSource(location: .file(file.path), transport: RecordingTransport(status: 500), clock: clock))
        let verifier = JWKSIDTokenVerifier(issuers: [issuer], dev: nil, clock: clock)
        let identity = try await verifier.verify(
            try signer.sign(try Self.recorded("clerk", "session_token_v2")), provider: .oidc, nonce: nil)
        #expect(identity.issuer == "https://clerk.example.com")
    }

    @Test func devTokensAreTrustedOnlyByAVerifierThatHasTheDevProvider() async throws {
        let clock = ManualTimeSource(Self.issuedAt)
        let dev = await DevIdentityProvider(clock: clock)
        let token = try await dev.idToken(
            provider: .google, subject: "dev-1", email: "dev@example.ch", emailVerified: true, nonce: nil,
            audience: nil, configured: [])
        let trusting = JWKSIDTokenVerifier(issuers: [], dev: dev, clock: clock)
        #expect(try await trusting.verify(token, provider: .google, nonce: nil).email == "dev@example.ch")
        let production = JWKSIDTokenVerifier(issuers: [], dev: nil, clock: clock)
        #expect(
            await Self.code { try await production.verify(token, provider: .google, nonce: nil) } == "invalid_id_token")
    }

    // MARK: Helpers

    static func verifier(
        _ provider: IdentityProvider, issuers: [String], audience: String, transport: RecordingTransport,
        clock: ManualTimeSource
    ) -> JWKSIDTokenVerifier {
        let source = JWKSSource(location: .url("https://keys.example/jwks"), transport: transport, clock: clock)
        return JWKSIDTokenVerifier(
            issuers: [IDTokenIssuer(provider: provider, issuers: issuers, audiences: [audience], keys: source)],
            dev: nil, clock: clock)
    }

    /// The recorded claims of one example, e.g. `("apple", "id_token_native_app")`.
    static func recorded(_ provider: String, _ example: String) throws -> [String: Any] {
        let document = try JSONSerialization.jsonObject(with: try Fixture.data("id_token_examples")) as? [String: Any]
        let section = try #require((document?[provider] as? [String: Any])?[example] as? [String: Any])
        return try #require(section["claims"] as? [String: Any])
    }

    static func code(_ body: () async throws -> some Any) async -> String? {
        do {
            _ = try await body()
            return nil
        } catch let error as ConciergeError {
            return error.code
        } catch {
            return "unexpected: \(error)"
        }
    }
}

/// Signs arbitrary claims with an RSA-2048 key made for the test (RS256 over
/// `header.payload`, by hand, so recorded claims are signed exactly as recorded).
struct TokenSigner {
    let kid: String
    private let key: _RSA.Signing.PrivateKey
    let jwks: String

    init(kid: String = "test-key-1") throws {
        self.kid = kid
        key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let (modulus, exponent) = try Insecure.RSA.PublicKey(backing: key.publicKey).getKeyPrimitives()
        jwks =
            #"{"keys":[{"kty":"RSA","alg":"RS256","use":"sig","kid":"\#(kid)","n":"\#(modulus.base64URLEncodedString())","e":"\#(exponent.base64URLEncodedString())"}]}"#
    }

    func sign(_ claims: [String: Any], alg: String = "RS256") throws -> String {
        let header = try JSONSerialization.data(withJSONObject: ["alg": alg, "kid": kid, "typ": "JWT"])
        let payload = try JSONSerialization.data(withJSONObject: claims)
        let input = header.base64URLEncodedString() + "." + payload.base64URLEncodedString()
        let signature = try key.signature(for: Data(input.utf8), padding: .insecurePKCS1v1_5)
        return input + "." + signature.rawRepresentation.base64URLEncodedString()
    }

    func jwksTransport(cacheControl: String = "public, max-age=23641, must-revalidate, no-transform")
        -> RecordingTransport
    {
        RecordingTransport(status: 200, headers: [("Cache-Control", cacheControl)], body: Data(jwks.utf8))
    }
}
