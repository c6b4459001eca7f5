import ConciergeCore
import ConciergeTestSupport
import Testing

/// Every sign-in limit, with the clock moved instead of waited for, against both engines.
@Suite struct SignInLimitTests {
    @Test(arguments: TestEngine.all)
    func aResendWithinThirtySecondsIsRefusedWithTheWait(engine: TestEngine) async throws {
        let fixture = try await SignInFixture(engine: engine)
        _ = try await fixture.sendCode()
        fixture.clock.advance(by: 12)
        let error = try await conciergeError { try await fixture.sendCode() }
        #expect(error.code == "resend_too_soon")
        #expect(error.category == .tooManyRequests(retryAfterSeconds: 18))
        fixture.clock.advance(by: 18)
        _ = try await fixture.sendCode()
        try await fixture.close()
    }

    @Test(arguments: TestEngine.all)
    func atMostFiveSendsPerPhonePerHour(engine: TestEngine) async throws {
        let fixture = try await SignInFixture(engine: engine)
        for _ in 1...5 {
            _ = try await fixture.sendCode()
            fixture.clock.advance(by: 60)
        }
        // The first send was 300 s ago; it leaves the window in 3300 s.
        let error = try await conciergeError { try await fixture.sendCode() }
        #expect(error.code == "rate_limited")
        #expect(error.category == .tooManyRequests(retryAfterSeconds: 3300))
        fixture.clock.advance(by: 3300)
        _ = try await fixture.sendCode()
        try await fixture.close()
    }

    @Test(arguments: TestEngine.all)
    func atMostTenSendsPerPhonePerDay(engine: TestEngine) async throws {
        let fixture = try await SignInFixture(engine: engine)
        for _ in 1...10 {
            _ = try await fixture.sendCode()
            fixture.clock.advance(by: 3600)
        }
        // Ten sends spread over ten hours: the hourly window is clear, the daily one is full.
        let error = try await conciergeError { try await fixture.sendCode() }
        #expect(error.code == "rate_limited")
        #expect(error.message.contains("today"))
        #expect(error.category == .tooManyRequests(retryAfterSeconds: 86_400 - 36_000))
        try await fixture.close()
    }

    @Test(arguments: TestEngine.all)
    func atMostThirtySendsPerIPPerHourAcrossPhones(engine: TestEngine) async throws {
        let fixture = try await SignInFixture(engine: engine)
        for index in 0..<30 {
            _ = try await fixture.sendCode(to: "+4179000\(String(format: "%04d", index))")
        }
        let error = try await conciergeError { try await fixture.sendCode(to: "+41790009999") }
        #expect(error.code == "rate_limited")
        #expect(error.message.contains("network"))
        // Another network is not affected.
        _ = try await fixture.sendCode(to: "+41790009999", ip: "198.51.100.1")
        try await fixture.close()
    }

    @Test(arguments: TestEngine.all)
    func atMostOneHundredTwentyVerificationsPerIPPerHour(engine: TestEngine) async throws {
        var policy = SignInPolicy()
        policy.verificationsPerIPPerHour = 120
        let fixture = try await SignInFixture(engine: engine, policy: policy)
        for index in 0..<120 {
            _ = await errorCode {
                try await fixture.service.verifyCode(
                    phone: "+4179100\(String(format: "%04d", index))", code: "123456", clientIP: SignInFixture.ip)
            }
        }
        let error = try await conciergeError {
            try await fixture.service.verifyCode(phone: "+41791009999", code: "123456", clientIP: SignInFixture.ip)
        }
        #expect(error.code == "rate_limited")
        #expect(error.category == .tooManyRequests(retryAfterSeconds: 3600))
        fixture.clock.advance(by: 3600)
        let after = await errorCode {
            try await fixture.service.verifyCode(phone: "+41791009999", code: "123456", clientIP: SignInFixture.ip)
        }
        #expect(after == "invalid_code")
        try await fixture.close()
    }

    @Test(arguments: TestEngine.all)
    func limitsAreConfigurable(engine: TestEngine) async throws {
        var policy = SignInPolicy()
        policy.sendsPerPhonePerHour = 2
        policy.resendInterval = 5
        let fixture = try await SignInFixture(engine: engine, policy: policy)
        _ = try await fixture.sendCode()
        fixture.clock.advance(by: 5)
        _ = try await fixture.sendCode()
        fixture.clock.advance(by: 5)
        #expect(await errorCode { try await fixture.sendCode() } == "rate_limited")
        try await fixture.close()
    }

    @Test(arguments: TestEngine.all)
    func aFailedSendDoesNotUseUpTheAllowance(engine: TestEngine) async throws {
        var policy = SignInPolicy()
        policy.sendsPerPhonePerHour = 1
        let fixture = try await SignInFixture(engine: engine, policy: policy)
        fixture.sms.failNextSends(
            with: ConciergeError(.unavailable(retryAfterSeconds: nil), code: "sms_unavailable", message: "down"))
        #expect(await errorCode { try await fixture.sendCode() } == "sms_unavailable")
        fixture.sms.failNextSends(with: nil)
        // No cooldown and no hourly send used: the next try goes through at once.
        _ = try await fixture.sendCode()
        try await fixture.close()
    }
}
