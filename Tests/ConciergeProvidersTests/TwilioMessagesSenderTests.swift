import ConciergeCore
import ConciergeProviders
import Foundation
import Testing

/// Twilio Programmable Messaging, against recorded answers through the transport seam.
@Suite struct TwilioMessagesSenderTests {
    private func sender(_ transport: RecordingTransport, baseURL: String = TwilioMessagesSender.defaultBaseURL)
        -> TwilioMessagesSender
    {
        TwilioMessagesSender(
            credentials: TwilioTestValues.credentials, from: TwilioTestValues.from, transport: transport,
            baseURL: baseURL)
    }

    @Test func messagesSenderPostsFormEncodedBodyWithBasicAuth() async throws {
        let transport = try RecordingTransport(status: 201, fixture: "messages_create_201")

        try await sender(transport).sendSMS(
            to: PhoneNumber(trustedE164: "+41791234567"), body: "Your Concierge code: 123456 & ok ü ~*")

        let request = try await transport.onlyRequest
        #expect(request.method == "POST")
        #expect(
            request.url == "https://api.twilio.com/2010-04-01/Accounts/ACaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/Messages.json"
        )
        #expect(request.header("content-type") == "application/x-www-form-urlencoded")
        #expect(request.header("Authorization") == TwilioTestValues.expectedAuthorization)
        // `+` must be %2B: a form decoder reads a bare `+` as a space.
        #expect(
            request.bodyText
                == "To=%2B41791234567&From=%2B15005550006&Body=Your%20Concierge%20code%3A%20123456%20%26%20ok%20%C3%BC%20~%2A"
        )
        #expect(await transport.timeouts == [.seconds(10)])
    }

    @Test func messagesSenderAcceptsRecordedCreatedResponse() async throws {
        let transport = try RecordingTransport(status: 201, fixture: "messages_create_201")
        try await sender(transport).sendSMS(to: TwilioTestValues.phone, body: "Hello! 👍")
    }

    @Test func messagesSenderAcceptsAnySuccessStatus() async throws {
        let transport = RecordingTransport(status: 200)
        try await sender(transport).sendSMS(to: TwilioTestValues.phone, body: "123456")
    }

    @Test func messagesSenderUsesInjectedBaseURLAndTimeout() async throws {
        let transport = try RecordingTransport(status: 201, fixture: "messages_create_201")
        let sender = TwilioMessagesSender(
            credentials: TwilioTestValues.credentials, from: TwilioTestValues.from, transport: transport,
            baseURL: "http://127.0.0.1:8080/", timeout: .milliseconds(250))

        try await sender.sendSMS(to: TwilioTestValues.phone, body: "123456")

        #expect(
            try await transport.onlyRequest.url
                == "http://127.0.0.1:8080/2010-04-01/Accounts/ACaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/Messages.json")
        #expect(await transport.timeouts == [.milliseconds(250)])
    }

    @Test func messagesSenderKeepsOddAccountSidInsideItsPathSegment() async throws {
        let transport = RecordingTransport(status: 201)
        let sender = TwilioMessagesSender(
            credentials: TwilioCredentials(accountSID: "AC1/../x?y", authToken: "t"), from: TwilioTestValues.from,
            transport: transport)

        try await sender.sendSMS(to: TwilioTestValues.phone, body: "123456")

        #expect(
            try await transport.onlyRequest.url
                == "https://api.twilio.com/2010-04-01/Accounts/AC1%2F..%2Fx%3Fy/Messages.json")
    }

    @Test func messagesSenderMapsInvalidNumber21211ToInvalidPhone() async throws {
        let transport = RecordingTransport(
            status: 400,
            body: try Fixture.twilioError(
                code: 21211, status: 400, message: "The 'To' number +15005550001 is not a valid phone number."))

        let error = await #expect(throws: ConciergeError.self) {
            try await sender(transport).sendSMS(to: PhoneNumber(trustedE164: "+15005550001"), body: "123456")
        }

        #expect(error?.category == .invalidInput)
        #expect(error?.code == "invalid_phone")
        #expect(error?.message.contains("could not send an SMS to this number") == true)
        #expect(error?.message.contains("Check") == true)
    }

    @Test func messagesSenderMapsRateLimitWithRetryAfterToUnavailable() async throws {
        let transport = try RecordingTransport(
            status: 429, headers: [("retry-after", "30")], fixture: "verify_create_verification_429")

        let error = await #expect(throws: ConciergeError.self) {
            try await sender(transport).sendSMS(to: TwilioTestValues.phone, body: "123456")
        }

        #expect(error?.category == .unavailable(retryAfterSeconds: 30))
        #expect(error?.code == "sms_unavailable")
        #expect(error?.message.contains("30 seconds") == true)
    }

    @Test func messagesSenderMapsServerErrorToUnavailable() async throws {
        let transport = RecordingTransport(
            status: 500, body: try Fixture.twilioError(code: 20500, status: 500, message: "Internal Server Error"))

        let error = await #expect(throws: ConciergeError.self) {
            try await sender(transport).sendSMS(to: TwilioTestValues.phone, body: "123456")
        }

        #expect(
            error
                == ConciergeError(
                    .unavailable(retryAfterSeconds: nil), code: "sms_unavailable",
                    message: "We could not send the SMS right now. Please try again in a minute."))
    }

    @Test func messagesSenderMapsUnauthorizedToUpstreamFailedWithoutLeakingCredentials() async throws {
        // Twilio's 20003 text is just "Authenticate", but a 20404 names the request path and
        // with it the account SID; neither text may reach the person.
        for (status, code, text) in [
            (401, 20003, "Authenticate"),
            (
                404, 20404,
                "The requested resource /2010-04-01/Accounts/\(TwilioTestValues.accountSID)/Messages.json was not found"
            ),
        ] {
            let transport = RecordingTransport(
                status: status, body: try Fixture.twilioError(code: code, status: status, message: text))

            let error = await #expect(throws: ConciergeError.self) {
                try await sender(transport).sendSMS(to: TwilioTestValues.phone, body: "123456")
            }

            #expect(error?.category == .upstreamFailed)
            #expect(error?.code == "sms_failed")
            #expect(error?.message.contains("misconfigured") == true)
            let everything = "\(String(describing: error)) \(String(reflecting: error))"
            #expect(!everything.contains(TwilioTestValues.authToken))
            #expect(!everything.contains(TwilioTestValues.accountSID))
            #expect(!everything.contains(TwilioTestValues.expectedAuthorization.dropFirst("Basic ".count)))
        }
    }

    @Test func messagesSenderMapsTransportTimeOutToUnavailableWithoutRetrying() async throws {
        let transport = RecordingTransport(failing: .timedOut)

        let error = await #expect(throws: ConciergeError.self) {
            try await sender(transport).sendSMS(to: TwilioTestValues.phone, body: "123456")
        }

        #expect(error?.category == .unavailable(retryAfterSeconds: nil))
        #expect(error?.code == "sms_unavailable")
        // Sends are not idempotent: one attempt only.
        #expect(await transport.requests.count == 1)
    }

    @Test func messagesSenderMapsUnreachableToUnavailable() async throws {
        let transport = RecordingTransport(failing: .unreachable("connection refused"))

        let error = await #expect(throws: ConciergeError.self) {
            try await sender(transport).sendSMS(to: TwilioTestValues.phone, body: "123456")
        }

        #expect(error?.category == .unavailable(retryAfterSeconds: nil))
        #expect(error?.code == "sms_unavailable")
    }
}
