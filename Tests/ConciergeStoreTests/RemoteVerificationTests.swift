import ConciergeCore
import ConciergeTestSupport
import Foundation
import Testing

/// Sign-in when the provider (Twilio Verify) owns the code: our limits still apply.
@Suite struct RemoteVerificationTests {
    /// Approves "424242"; can be told to fail like an unreachable provider.
    final class FakeVerify: RemoteCodeVerification, @unchecked Sendable {
        private let lock = NSLock()
        private var started: [String] = []
        private var down = false

        func startVerification(to phone: PhoneNumber) async throws {
            lock.withLock { started.append(phone.e164) }
        }

        func checkVerification(phone: PhoneNumber, code: String) async throws -> Bool {
            if lock.withLock({ down }) {
                throw ConciergeError(.unavailable(retryAfterSeconds: nil), code: "sms_unavailable", message: "down")
            }
            return code == "424242"
        }

        func setDown(_ value: Bool) { lock.withLock { down = value } }
        var starts: [String] { lock.withLock { started } }
    }

    @Test(arguments: TestEngine.all)
    func theProviderChecksTheCodeAndOurGuessLimitStillApplies(engine: TestEngine) async throws {
        let verify = FakeVerify()
        let fixture = try await SignInFixture(engine: engine, codes: .remote(verify))
        _ = try await fixture.service.sendCode(to: SignInFixture.phone, clientIP: SignInFixture.ip)
        #expect(verify.starts == [SignInFixture.phone])
        #expect(fixture.sms.messages.isEmpty)

        let wrong = await errorCode {
            try await fixture.service.verifyCode(phone: SignInFixture.phone, code: "111111", clientIP: SignInFixture.ip)
        }
        #expect(wrong == "invalid_code")

        // A provider outage does not spend a guess: four more wrong ones still leave the fifth.
        verify.setDown(true)
        let outage = await errorCode {
            try await fixture.service.verifyCode(phone: SignInFixture.phone, code: "111111", clientIP: SignInFixture.ip)
        }
        #expect(outage == "sms_unavailable")
        verify.setDown(false)
        for _ in 1...3 {
            _ = await errorCode {
                try await fixture.service.verifyCode(
                    phone: SignInFixture.phone, code: "111111", clientIP: SignInFixture.ip)
            }
        }
        let signedIn = try await fixture.service.verifyCode(
            phone: SignInFixture.phone, code: "424242", clientIP: SignInFixture.ip)
        #expect(signedIn.customer.phone.e164 == SignInFixture.phone)
        try await fixture.close()
    }
}
