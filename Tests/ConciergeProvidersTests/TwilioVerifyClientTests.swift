import ConciergeCore
import ConciergeProviders
import Foundation
import Testing

/// Twilio Verify v2, against recorded answers through the transport seam.
@Suite struct TwilioVerifyClientTests {
    private func client(_ transport: RecordingTransport) throws -> TwilioVerifyClient {
        try TwilioVerifyClient(
            credentials: TwilioTestValues.credentials, serviceSID: TwilioTestValues.serviceSID, transport: transport)
    }

    private static let codeExpired = ConciergeError(
        .invalidInput, code: "code_expired",
        message: "This code has expired or was replaced by a newer one. Request a new code.")

    private static let tooManyAttempts = ConciergeError(
        .tooManyRequests(retryAfterSeconds: nil), code: "too_many_attempts",
        message: "Too many wrong codes. This code no longer works; request a new one.")

    // MARK: start

    @Test func verifyStartPostsToAndSmsChannelWithBasicAuth() async throws {
        let transport = try RecordingTransport(status: 201, fixture: "verify_create_verification_201")

        try await client(transport).startVerification(to: TwilioTestValues.phone)

        let request = try await transport.onlyRequest
        #expect(request.method == "POST")
        #expect(request.url == "https://verify.twilio.com/v2/Services/VAaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/Verifications")
        #expect(request.header("Content-Type") == "application/x-www-form-urlencoded")
        #expect(request.header("authorization") == TwilioTestValues.expectedAuthorization)
        #expect(request.bodyText == "To=%2B15017122661&Channel=sms")
        #expect(await transport.timeouts == [.seconds(10)])
    }

    @Test func verifyStartRateLimitedUsesRetryAfter() async throws {
        let transport = try RecordingTransport(
            status: 429, headers: [("Retry-After", "120")], fixture: "verify_create_verification_429")

        let error = await #expect(throws: ConciergeError.self) {
            try await client(transport).startVerification(to: TwilioTestValues.phone)
        }

        #expect(error?.category == .unavailable(retryAfterSeconds: 120))
        #expect(error?.code == "sms_unavailable")
    }

    @Test func verifyStartInvalidParameter60200MapsToInvalidPhone() async throws {
        let transport = RecordingTransport(
            status: 400, body: try Fixture.twilioError(code: 60200, status: 400, message: "Invalid parameter `To`"))

        let error = await #expect(throws: ConciergeError.self) {
            try await client(transport).startVerification(to: PhoneNumber(trustedE164: "+1500555"))
        }

        #expect(error?.code == "invalid_phone")
        #expect(error?.category == .invalidInput)
    }

    @Test func verifyStartOnUnknownServiceIsMisconfiguration() async throws {
        // A 404 on start means the service SID is wrong, not that a code expired.
        let transport = RecordingTransport(
            status: 404, body: try Fixture.twilioError(code: 20404, status: 404, message: "not found"))

        let error = await #expect(throws: ConciergeError.self) {
            try await client(transport).startVerification(to: TwilioTestValues.phone)
        }

        #expect(error?.category == .upstreamFailed)
        #expect(error?.code == "sms_failed")
    }

    @Test func verifyStartTimeOutMapsToUnavailable() async throws {
        let transport = RecordingTransport(failing: .timedOut)

        let error = await #expect(throws: ConciergeError.self) {
            try await client(transport).startVerification(to: TwilioTestValues.phone)
        }

        #expect(error?.category == .unavailable(retryAfterSeconds: nil))
        #expect(await transport.requests.count == 1)
    }

    // MARK: check

    @Test func verifyCheckApprovedReturnsTrue() async throws {
        let transport = try RecordingTransport(status: 201, fixture: "verify_check_approved_201")

        let approved = try await client(transport).checkVerification(phone: TwilioTestValues.phone, code: "123456")

        #expect(approved)
        let request = try await transport.onlyRequest
        #expect(request.method == "POST")
        #expect(
            request.url == "https://verify.twilio.com/v2/Services/VAaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/VerificationCheck")
        #expect(request.header("Authorization") == TwilioTestValues.expectedAuthorization)
        #expect(request.bodyText == "To=%2B15017122661&Code=123456")
    }

    @Test func verifyCheckPendingMeansWrongCode() async throws {
        let transport = try RecordingTransport(status: 200, fixture: "verify_check_pending_200")

        #expect(try await client(transport).checkVerification(phone: TwilioTestValues.phone, code: "000000") == false)
    }

    @Test func verifyCheckNotFoundThrowsCodeExpired() async throws {
        let transport = RecordingTransport(
            status: 404,
            body: try Fixture.twilioError(
                code: 20404, status: 404,
                message:
                    "The requested resource /Services/\(TwilioTestValues.serviceSID)/VerificationCheck was not found"))

        let error = await #expect(throws: ConciergeError.self) {
            try await client(transport).checkVerification(phone: TwilioTestValues.phone, code: "123456")
        }

        #expect(error == Self.codeExpired)
    }

    @Test func verifyCheckMaxAttempts60202ThrowsTooManyAttempts() async throws {
        let transport = RecordingTransport(
            status: 429, body: try Fixture.twilioError(code: 60202, status: 429, message: "Max check attempts reached"))

        let error = await #expect(throws: ConciergeError.self) {
            try await client(transport).checkVerification(phone: TwilioTestValues.phone, code: "123456")
        }

        #expect(error == Self.tooManyAttempts)
    }

    @Test func verifyCheckOtherRateLimitIsUnavailable() async throws {
        let transport = try RecordingTransport(status: 429, fixture: "verify_create_verification_429")

        let error = await #expect(throws: ConciergeError.self) {
            try await client(transport).checkVerification(phone: TwilioTestValues.phone, code: "123456")
        }

        #expect(error?.category == .unavailable(retryAfterSeconds: nil))
        #expect(error?.code == "sms_unavailable")
    }

    @Test(arguments: [
        ("max_attempts_reached", "too_many_attempts"), ("expired", "code_expired"), ("canceled", "code_expired"),
    ])
    func verifyCheckTerminalStatusesThrow(status: String, expectedCode: String) async throws {
        let body = try JSONSerialization.data(withJSONObject: ["status": status, "valid": false])
        let transport = RecordingTransport(status: 200, body: body)

        let error = await #expect(throws: ConciergeError.self) {
            try await client(transport).checkVerification(phone: TwilioTestValues.phone, code: "123456")
        }

        #expect(error?.code == expectedCode)
    }

    @Test func verifyCheckUnreadableSuccessIsUpstreamFailure() async throws {
        let transport = RecordingTransport(status: 200, body: Data("<html></html>".utf8))

        let error = await #expect(throws: ConciergeError.self) {
            try await client(transport).checkVerification(phone: TwilioTestValues.phone, code: "123456")
        }

        #expect(error?.category == .upstreamFailed)
    }

    @Test func verifyCheckServerErrorIsUnavailable() async throws {
        let transport = RecordingTransport(status: 503)

        let error = await #expect(throws: ConciergeError.self) {
            try await client(transport).checkVerification(phone: TwilioTestValues.phone, code: "123456")
        }

        #expect(error?.category == .unavailable(retryAfterSeconds: nil))
        #expect(error?.code == "sms_unavailable")
    }

    // MARK: configuration

    @Test(arguments: [
        "",
        "VA",
        "ACaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",  // the account SID pasted by mistake
        "MGaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",  // a messaging service SID
        "VAaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",  // 31 hex digits
        "VAaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",  // 33 hex digits
        "VAgaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",  // not hex
        "vaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",  // lower-case prefix
        " VAaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    ])
    func verifyInitRejectsMalformedServiceSid(serviceSID: String) {
        let error = #expect(throws: TwilioConfigurationError.self) {
            try TwilioVerifyClient(credentials: TwilioTestValues.credentials, serviceSID: serviceSID)
        }
        #expect(error?.message.contains("Verify service SID") == true)
        #expect(error?.message.contains("VA") == true)
    }

    @Test(arguments: ["VAaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "VA0123456789abcdefABCDEF0123456789"])
    func verifyInitAcceptsServiceSid(serviceSID: String) throws {
        _ = try TwilioVerifyClient(credentials: TwilioTestValues.credentials, serviceSID: serviceSID)
    }
}
