import ConciergeCore
import ConciergeProviders
import Foundation
import Testing

/// The mapping rules table, driven through the public Messages sender so only observable
/// behaviour is pinned down.
@Suite struct TwilioErrorMappingTests {
    private func failure(status: Int, headers: [(String, String)] = [], body: Data) async -> ConciergeError? {
        let sender = TwilioMessagesSender(
            credentials: TwilioTestValues.credentials, from: TwilioTestValues.from,
            transport: RecordingTransport(status: status, headers: headers, body: body))
        return await #expect(throws: ConciergeError.self) {
            try await sender.sendSMS(to: TwilioTestValues.phone, body: "123456")
        }
    }

    @Test(arguments: [21211, 21614, 21612, 21408, 21610, 60200])
    func badNumberCodesMapToInvalidPhone(code: Int) async throws {
        let error = await failure(
            status: 400, body: try Fixture.twilioError(code: code, status: 400, message: "bad number"))
        #expect(error?.category == .invalidInput)
        #expect(error?.code == "invalid_phone")
    }

    @Test func otherBadRequestCodesMapToUpstreamFailed() async throws {
        // 21212: our own `From` is invalid, which the person cannot fix.
        let error = await failure(
            status: 400, body: try Fixture.twilioError(code: 21212, status: 400, message: "Invalid From"))
        #expect(error?.category == .upstreamFailed)
        #expect(error?.code == "sms_failed")
    }

    @Test(arguments: [401, 403, 404, 405, 409, 413, 422])
    func clientErrorsMapToUpstreamFailed(status: Int) async throws {
        let error = await failure(
            status: status, body: try Fixture.twilioError(code: 20000 + status, status: status, message: "nope"))
        #expect(error?.category == .upstreamFailed)
        #expect(error?.code == "sms_failed")
    }

    @Test(arguments: [500, 502, 503, 504])
    func serverErrorsMapToUnavailable(status: Int) async {
        // Gateways in front of Twilio answer with HTML or nothing; that must not matter.
        let error = await failure(status: status, body: Data("<html>Bad Gateway</html>".utf8))
        #expect(error?.category == .unavailable(retryAfterSeconds: nil))
        #expect(error?.code == "sms_unavailable")
        #expect(error?.message == "We could not send the SMS right now. Please try again in a minute.")
    }

    @Test(arguments: ["soon", "-5", "0", "Wed, 21 Oct 2015 07:28:00 GMT", ""])
    func unusableRetryAfterCountsAsAbsent(value: String) async throws {
        let error = await failure(
            status: 429, headers: [("Retry-After", value)], body: try Fixture.data("verify_create_verification_429"))
        #expect(error?.category == .unavailable(retryAfterSeconds: nil))
        #expect(error?.code == "sms_unavailable")
    }

    @Test func maxSendAttempts60203SaysHowLongToWait() async throws {
        let error = await failure(
            status: 429, body: try Fixture.twilioError(code: 60203, status: 429, message: "Max send attempts reached"))
        #expect(error?.category == .unavailable(retryAfterSeconds: nil))
        #expect(error?.code == "sms_unavailable")
        #expect(error?.message.contains("10 minutes") == true)
    }
}
