import ConciergeCore
import ConciergeTestSupport
import CryptoExtras
import Foundation
import Hummingbird
import HummingbirdTesting
import JWTKit
import Logging
import NIOCore
import Testing

@testable import ConciergeServer

/// Sign-in with Google ID tokens against a locally generated RSA key, whose JWKS a local stub
/// server publishes the way Google does (with Cache-Control), and the dev identity provider.
@Suite struct AccountSocialHTTPTests {
    @Test(arguments: TestEngine.all)
    func aGoogleTokenSignsInAndBadTokensAreRefused(engine: TestEngine) async throws {
        let issuer = try await LocalIdentityIssuer()
        try await issuer.serveKeys { jwksURL in
            let app = try await TestApp.make(engine: engine, environment: issuer.environment(jwksURL))
            try await app.run { client in
                let now = app.clock.now
                let good = try await issuer.token(sub: "g-1", email: "anna@example.ch", nonce: "n-1", now: now)
                let signedIn = try await client.idTokenSignIn(good, nonce: "n-1")
                #expect(signedIn.status == .ok)
                let account = try #require(try signedIn.decode(AccountHTTP.Session.self).account)
                #expect(account.verifiedEmails == ["anna@example.ch"])
                #expect(
                    account.methods.contains { $0.kind == "oidc" && $0.identifier == "https://accounts.google.com g-1" }
                )
                // The same subject signs in to the same account again.
                let again = try await client.idTokenSignIn(try await issuer.token(sub: "g-1", now: now))
                #expect(try again.decode(AccountHTTP.Session.self).account?.id == account.id)

                var tampered = Array(good)
                let middle = good.firstIndex(of: ".").map { good.distance(from: good.startIndex, to: $0) + 5 } ?? 5
                tampered[middle] = tampered[middle] == "A" ? "B" : "A"
                let refusals = [
                    ("tampered", String(tampered), "n-1"),
                    ("wrong audience", try await issuer.token(sub: "g-1", audience: "someone-else", now: now), nil),
                    ("expired", try await issuer.token(sub: "g-1", now: now.addingTimeInterval(-7200)), nil),
                    ("nonce", good, "another-nonce"),
                    ("unknown key", try await LocalIdentityIssuer().token(sub: "g-1", now: now), nil),
                ]
                for (name, token, nonce) in refusals {
                    let refused = try await client.idTokenSignIn(token, nonce: nonce)
                    #expect(refused.status == .unauthorized, "\(name)")
                    #expect(refused.errorBody?.code == "invalid_id_token", "\(name)")
                }
                // The stub served the keys once: they are cached for max-age.
                #expect(await issuer.fetches.value <= 2)
            }
        }
    }

    @Test(arguments: TestEngine.all)
    func aProviderVerifiedEmailJoinsTheAccountWithThatVerifiedEmail(engine: TestEngine) async throws {
        let issuer = try await LocalIdentityIssuer()
        try await issuer.serveKeys { jwksURL in
            let app = try await TestApp.make(engine: engine, environment: issuer.environment(jwksURL))
            try await app.runWithWorker { client, worker in
                let created = try await client.signUp(email: "anna@example.ch").decode(AccountHTTP.Session.self)
                let accountID = try #require(created.account?.id)

                // Unverified, the address does not join: a new account (the address stays Anna's).
                let early = try await client.idTokenSignIn(
                    try await issuer.token(sub: "g-early", email: "anna@example.ch", now: app.clock.now))
                #expect(try early.decode(AccountHTTP.Session.self).account?.id != accountID)

                let token = try await client.mailedToken(to: "anna@example.ch", subject: "Confirm", delivering: worker)
                _ = try await client.send(.post, "/account/email/verify", json: #"{"token": "\#(token)"}"#)
                let joined = try await client.idTokenSignIn(
                    try await issuer.token(sub: "g-2", email: "ANNA@example.ch", now: app.clock.now))
                let account = try #require(try joined.decode(AccountHTTP.Session.self).account)
                #expect(account.id == accountID)
                #expect(account.methods.map(\.kind).sorted() == ["email", "oidc"])

                // An email the provider does not vouch for never joins.
                let unverified = try await client.idTokenSignIn(
                    try await issuer.token(
                        sub: "g-3", email: "anna@example.ch", emailVerified: false, now: app.clock.now))
                #expect(try unverified.decode(AccountHTTP.Session.self).account?.id != accountID)
            }
        }
    }

    @Test(arguments: TestEngine.all)
    func theDevIdentityProviderWorksInDevOnly(engine: TestEngine) async throws {
        let dev = try await TestApp.make(engine: engine, environment: AccountHTTP.environment)
        let devToken = try await dev.run { client in
            let issued = try await client.send(
                .get, "/dev/id-token?provider=google&email=dev%40example.ch&emailVerified=true&sub=dev-1&nonce=n9")
            #expect(issued.status == .ok)
            let token = try #require(try issued.decode([String: String].self)["idToken"])
            let signedIn = try await client.idTokenSignIn(token, nonce: "n9")
            #expect(signedIn.status == .ok)
            #expect(try signedIn.decode(AccountHTTP.Session.self).account?.verifiedEmails == ["dev@example.ch"])
            for provider in ["apple", "oidc"] {
                let other = try await client.send(.get, "/dev/id-token?provider=\(provider)&sub=dev-\(provider)")
                let otherToken = try #require(try other.decode([String: String].self)["idToken"])
                #expect(try await client.idTokenSignIn(otherToken, provider: provider).status == .ok)
                // A dev token names its provider: it does not sign in as another one.
                #expect(try await client.idTokenSignIn(otherToken, provider: "google").status == .unauthorized)
            }
            // Unknown or empty provider names are typos: a 400 that names the choices.
            for typo in ["", "gogle"] {
                let refused = try await client.send(.get, "/dev/id-token?provider=\(typo)")
                #expect(refused.status == .badRequest)
            }
            return token
        }

        var production = AccountHTTP.environment
        production["CONCIERGE_MODE"] = "production"
        production["CONCIERGE_SECRET"] = String(repeating: "s", count: 40)
        production["TWILIO_ACCOUNT_SID"] = "AC" + String(repeating: "0", count: 32)
        production["TWILIO_AUTH_TOKEN"] = "token"
        production["TWILIO_FROM"] = "+41445551234"
        production["SMTP_URL"] = "smtp://user:pw@127.0.0.1:2525?from=rides@example.com"
        production["CONCIERGE_PAYMENT_PROVIDER"] = "mollie"
        production["MOLLIE_API_KEY"] = "live_abc"
        production["CONCIERGE_PUBLIC_URL"] = "https://concierge.example.com"
        production["CONCIERGE_GOOGLE_AUDIENCES"] = DevIdentityAudience.value
        let app = try await TestApp.make(engine: engine, environment: production, clock: dev.clock)
        try await app.run { client in
            #expect(try await client.send(.get, "/dev/id-token?provider=google").status == .notFound)
            let refused = try await client.idTokenSignIn(devToken, nonce: "n9")
            #expect(refused.status == .unauthorized)
        }
    }
}

enum DevIdentityAudience {
    static let value = "concierge-dev"
}

extension TestClientProtocol {
    func idTokenSignIn(_ token: String, provider: String = "google", nonce: String? = nil) async throws -> TestResponse
    {
        var body = ["provider": provider, "idToken": token]
        body["nonce"] = nonce
        return try await send(
            .post, "/account/sign-in/id-token",
            json: String(decoding: try JSONEncoder().encode(body), as: UTF8.self))
    }
}

/// A Google-like issuer made up for the test: an RSA-2048 key generated now, its JWKS served
/// by a local Hummingbird stub with Google's Cache-Control, and tokens signed with it.
actor LocalIdentityIssuer {
    static let audience = "test-client.apps.googleusercontent.com"
    let kid: String
    private let keys = JWTKeyCollection()
    private let jwks: String
    nonisolated let fetches = Counter()

    init() async throws {
        let privateKey = try Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048))
        let kid = "test-" + UUID().uuidString.prefix(8)
        self.kid = kid
        await keys.add(rsa: privateKey, digestAlgorithm: .sha256, kid: JWKIdentifier(string: kid))
        let (modulus, exponent) = try privateKey.publicKey.getKeyPrimitives()
        jwks =
            #"{"keys":[{"kty":"RSA","alg":"RS256","use":"sig","kid":"\#(kid)","n":"\#(modulus.base64URLEncodedString())","e":"\#(exponent.base64URLEncodedString())"}]}"#
    }

    nonisolated func environment(_ jwksURL: String) -> [String: String] {
        var environment = AccountHTTP.environment
        environment["CONCIERGE_GOOGLE_AUDIENCES"] = Self.audience
        environment["CONCIERGE_GOOGLE_JWKS"] = jwksURL
        return environment
    }

    struct Claims: JWTPayload {
        let iss: String
        let sub: String
        let aud: String
        let exp: Int
        let iat: Int
        let nonce: String?
        let email: String?
        // swift-format-ignore: AlwaysUseLowerCamelCase
        // The claim's name in the token.
        let email_verified: Bool?

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    func token(
        sub: String, email: String? = nil, emailVerified: Bool = true, nonce: String? = nil,
        audience: String = LocalIdentityIssuer.audience, now: Date
    ) async throws -> String {
        try await keys.sign(
            Claims(
                iss: "https://accounts.google.com", sub: sub, aud: audience, exp: Int(now.timeIntervalSince1970) + 3600,
                iat: Int(now.timeIntervalSince1970), nonce: nonce, email: email,
                email_verified: email == nil ? nil : emailVerified),
            kid: JWKIdentifier(string: kid))
    }

    /// Serves the JWKS at `/certs` on a free loopback port for the duration of `body`.
    func serveKeys(_ body: @Sendable (_ jwksURL: String) async throws -> Void) async throws {
        let router = Router()
        let document = jwks
        let fetches = self.fetches
        router.get("certs") { _, _ -> Response in
            await fetches.increment()
            return Response(
                status: .ok,
                headers: [
                    .contentType: "application/json",
                    .cacheControl: "public, max-age=23641, must-revalidate, no-transform",
                ],
                body: .init(byteBuffer: ByteBuffer(string: document)))
        }
        var quiet = Logger(label: "jwks-stub")
        quiet.logLevel = .critical
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                if let port = channel.localAddress?.port { portContinuation.yield(port) }
                portContinuation.finish()
            }, logger: quiet)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await app.run() }
            defer { group.cancelAll() }
            var iterator = ports.makeAsyncIterator()
            let port = try #require(await iterator.next(), "the JWKS stub did not report its port")
            try await body("http://127.0.0.1:\(port)/certs")
        }
    }
}

actor Counter {
    private(set) var value = 0
    func increment() { value += 1 }
}
