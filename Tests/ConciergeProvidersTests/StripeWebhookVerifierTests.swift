import ConciergeCore
import ConciergeProviders
import Crypto
import Foundation
import Testing

/// `Stripe-Signature` checks over the exact raw body of `stripe_event_checkout_session_completed.json`.
///
/// The expected signatures were computed outside Swift (Python's `hmac` module,
/// `hmac.new(secret, b"1800000000." + raw_body, sha256).hexdigest()`), so the test does not
/// trust the code under test to sign.
@Suite struct StripeWebhookVerifierTests {
    static let secret = "whsec_test_secret"
    static let timestamp = 1_800_000_000
    static let now = Date(timeIntervalSince1970: TimeInterval(timestamp))
    static let validSignature = "348730b97a40ae0dcb22e8219ca502351f7fa04cec5b59a53e9e89b67db202eb"
    /// The same body signed with `whsec_old_secret`.
    static let oldSecretSignature = "86441184dee9d8f7209cd3b850d736c18adde680f22321cc9781d86d82256b46"

    private let verifier = StripeWebhookVerifier(secret: secret)

    private func payload() throws -> Data {
        try Fixture.data("stripe_event_checkout_session_completed")
    }

    private func expectInvalidSignature(
        payload: Data? = nil, header: String?, now: Date = now, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let body = try payload ?? self.payload()
        let error = #expect(throws: ConciergeError.self, sourceLocation: sourceLocation) {
            try verifier.verify(payload: body, signatureHeader: header, now: now)
        }
        #expect(error?.category == .invalidInput, sourceLocation: sourceLocation)
        #expect(error?.code == "invalid_signature", sourceLocation: sourceLocation)
        #expect(error?.message.contains(Self.secret) == false, sourceLocation: sourceLocation)
    }

    @Test func validSignatureGivesTheEvent() throws {
        let event = try verifier.verify(
            payload: try payload(), signatureHeader: "t=\(Self.timestamp),v1=\(Self.validSignature)", now: Self.now)
        #expect(
            event
                == StripeWebhookEvent(
                    id: "evt_1Pgc76B7WZ01zgkWwyRHS12y", type: "checkout.session.completed",
                    checkoutSessionID: "cs_test_a1YS1URlnyQCN5fUUduORoQ7Pw41PJqDWkIVQCpJPqkfIhd6tVY8XB1OLY",
                    paymentStatus: "paid"))
    }

    @Test func otherSchemesAndUnknownKeysAreIgnored() throws {
        let header = "t=\(Self.timestamp), v0=deadbeef, v1=\(Self.validSignature), x=1"
        #expect(throws: Never.self) {
            try verifier.verify(payload: try payload(), signatureHeader: header, now: Self.now)
        }
    }

    @Test func rotatedSecretsSendSeveralSignaturesAndAnyMayMatch() throws {
        let header = "t=\(Self.timestamp),v1=\(Self.oldSecretSignature),v1=\(Self.validSignature)"
        let event = try verifier.verify(payload: try payload(), signatureHeader: header, now: Self.now)
        #expect(event.id == "evt_1Pgc76B7WZ01zgkWwyRHS12y")

        let oldVerifier = StripeWebhookVerifier(secret: "whsec_old_secret")
        #expect(throws: Never.self) {
            try oldVerifier.verify(payload: try payload(), signatureHeader: header, now: Self.now)
        }
    }

    @Test func wrongSignatureIsRejected() throws {
        try expectInvalidSignature(header: "t=\(Self.timestamp),v1=\(Self.oldSecretSignature)")
        try expectInvalidSignature(header: "t=\(Self.timestamp),v1=\(String(Self.validSignature.dropLast()))")
        try expectInvalidSignature(header: "t=\(Self.timestamp),v1=00")
    }

    @Test func wrongSecretIsRejected() throws {
        let other = StripeWebhookVerifier(secret: "whsec_someone_else")
        let error = #expect(throws: ConciergeError.self) {
            try other.verify(
                payload: try payload(), signatureHeader: "t=\(Self.timestamp),v1=\(Self.validSignature)", now: Self.now)
        }
        #expect(error?.code == "invalid_signature")
    }

    @Test func tamperedBodyIsRejected() throws {
        var body = try payload()
        body[body.startIndex + 10] ^= 0x01
        try expectInvalidSignature(payload: body, header: "t=\(Self.timestamp),v1=\(Self.validSignature)")
    }

    @Test func signatureWithAnotherTimestampIsRejected() throws {
        try expectInvalidSignature(header: "t=\(Self.timestamp + 1),v1=\(Self.validSignature)")
    }

    @Test func staleOrFutureTimestampsOutsideToleranceAreRejected() throws {
        let header = "t=\(Self.timestamp),v1=\(Self.validSignature)"
        try expectInvalidSignature(header: header, now: Self.now.addingTimeInterval(301))
        try expectInvalidSignature(header: header, now: Self.now.addingTimeInterval(-301))
        for offset in [300.0, -300.0, 0] {
            #expect(throws: Never.self) {
                try verifier.verify(
                    payload: try payload(), signatureHeader: header, now: Self.now.addingTimeInterval(offset))
            }
        }
        let strict = StripeWebhookVerifier(secret: Self.secret, tolerance: 10)
        #expect(throws: ConciergeError.self) {
            try strict.verify(payload: try payload(), signatureHeader: header, now: Self.now.addingTimeInterval(11))
        }
    }

    @Test func missingHeaderIsRejected() throws {
        try expectInvalidSignature(header: nil)
        try expectInvalidSignature(header: "")
        try expectInvalidSignature(header: "   ")
    }

    @Test(arguments: [
        "garbage",
        "v1=348730b97a40ae0dcb22e8219ca502351f7fa04cec5b59a53e9e89b67db202eb",
        "t=abc,v1=348730b97a40ae0dcb22e8219ca502351f7fa04cec5b59a53e9e89b67db202eb",
        "t=,v1=348730b97a40ae0dcb22e8219ca502351f7fa04cec5b59a53e9e89b67db202eb",
        "t=-1800000000,v1=348730b97a40ae0dcb22e8219ca502351f7fa04cec5b59a53e9e89b67db202eb",
        "t=1800000000,t=1800000000,v1=348730b97a40ae0dcb22e8219ca502351f7fa04cec5b59a53e9e89b67db202eb",
        "t=1800000000",
        "t=1800000000,v0=348730b97a40ae0dcb22e8219ca502351f7fa04cec5b59a53e9e89b67db202eb",
        "t=1800000000,v1=",
        "t=1800000000;v1=348730b97a40ae0dcb22e8219ca502351f7fa04cec5b59a53e9e89b67db202eb",
    ])
    func malformedHeadersAreRejected(header: String) throws {
        try expectInvalidSignature(header: header)
    }

    @Test func signedBodyThatIsNotAnEventIsInvalidPayload() throws {
        let error = #expect(throws: ConciergeError.self) {
            try verifier.verify(
                payload: Data("not json".utf8),
                signatureHeader:
                    "t=\(Self.timestamp),v1=104417af2afa5b6e82228596c2c7d8e0d12a4d769b1fd94ca3dd1de0dd456f65",
                now: Self.now)
        }
        #expect(error?.category == .invalidInput)
        #expect(error?.code == "invalid_payload")
    }

    @Test func eventAboutAnotherObjectHasNoSessionID() throws {
        let body = Data(
            #"{"id":"evt_1","object":"event","type":"charge.refunded","data":{"object":{"id":"ch_1","object":"charge"}}}"#
                .utf8)
        let signature = try Self.sign(body)
        let event = try verifier.verify(
            payload: body, signatureHeader: "t=\(Self.timestamp),v1=\(signature)", now: Self.now)
        #expect(
            event
                == StripeWebhookEvent(id: "evt_1", type: "charge.refunded", checkoutSessionID: nil, paymentStatus: nil))
    }

    /// Signs with swift-crypto directly, as Stripe's `GenerateTestSignedPayload` does, for
    /// bodies that have no precomputed vector.
    private static func sign(_ body: Data) throws -> String {
        var message = Data("\(timestamp).".utf8)
        message.append(body)
        let mac = HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: Data(secret.utf8)))
        return mac.map { String(format: "%02x", $0) }.joined()
    }
}
