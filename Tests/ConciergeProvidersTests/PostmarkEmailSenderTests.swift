import ConciergeCore
import ConciergeProviders
import Foundation
import Testing

/// Postmark's HTTP API, against recorded answers (Fixtures/postmark_*.json, shapes from the
/// contract's section 6) through the transport seam.
@Suite struct PostmarkEmailSenderTests {
    static let token = "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"

    private func sender(
        _ transport: RecordingTransport, baseURL: String = PostmarkEmailSender.defaultBaseURL,
        timeout: Duration = .seconds(10)
    ) -> PostmarkEmailSender {
        PostmarkEmailSender(
            serverToken: Self.token, from: "Concierge <bookings@example.com>", transport: transport, baseURL: baseURL,
            timeout: timeout)
    }

    private func sendError(_ transport: RecordingTransport, to address: String = "guest@example.org") async
        -> ConciergeError?
    {
        await #expect(throws: ConciergeError.self) {
            try await sender(transport).sendEmail(to: address, subject: "Your booking BK-123", textBody: "Hi")
        }
    }

    @Test func postsJSONWithTokenHeaderAndOutboundStream() async throws {
        let transport = try RecordingTransport(status: 200, fixture: "postmark_send_200")

        try await sender(transport).sendEmail(
            to: "guest@example.org", subject: "Your booking BK-123 — ünïcode \"quoted\"", textBody: "Hi …\nLine 2")

        let request = try await transport.onlyRequest
        #expect(request.method == "POST")
        #expect(request.url == "https://api.postmarkapp.com/email")
        #expect(request.header("x-postmark-server-token") == Self.token)
        #expect(request.header("Accept") == "application/json")
        #expect(request.header("Content-Type") == "application/json")
        let body = try #require(request.body)
        let json = try #require(try JSONSerialization.jsonObject(with: body) as? [String: String])
        #expect(
            json == [
                "From": "Concierge <bookings@example.com>", "To": "guest@example.org",
                "Subject": "Your booking BK-123 — ünïcode \"quoted\"", "TextBody": "Hi …\nLine 2",
                "MessageStream": "outbound",
            ])
        #expect(await transport.timeouts == [.seconds(10)])
    }

    @Test func usesInjectedBaseURLAndTimeout() async throws {
        let transport = try RecordingTransport(status: 200, fixture: "postmark_send_200")
        try await sender(transport, baseURL: "http://127.0.0.1:9000/", timeout: .milliseconds(300))
            .sendEmail(to: "guest@example.org", subject: "s", textBody: "b")
        #expect(try await transport.onlyRequest.url == "http://127.0.0.1:9000/email")
        #expect(await transport.timeouts == [.milliseconds(300)])
    }

    @Test func acceptsRecordedSuccess() async throws {
        let transport = try RecordingTransport(status: 200, fixture: "postmark_send_200")
        try await sender(transport).sendEmail(to: "guest@example.org", subject: "s", textBody: "b")
    }

    @Test func mapsBadTokenToMisconfiguredWithoutEchoingToken() async throws {
        let transport = try RecordingTransport(status: 401, fixture: "postmark_error_401_bad_token")
        let error = try #require(await sendError(transport))
        #expect(error.category == .upstreamFailed)
        #expect(error.code == "email_failed")
        #expect(error.message.contains("misconfigured"))
        #expect(!error.message.contains(Self.token))
        #expect(!error.description.contains(Self.token))
        #expect(!error.message.contains("X-Postmark"))
    }

    @Test func mapsErrorCode10EvenWithoutA401() async throws {
        let transport = RecordingTransport(status: 422, body: Data(#"{"ErrorCode":10,"Message":"Bad token"}"#.utf8))
        #expect(await sendError(transport)?.code == "email_failed")
    }

    @Test func mapsInvalidEmailRequestToInvalidEmail() async throws {
        let transport = try RecordingTransport(status: 422, fixture: "postmark_error_422_invalid_email")
        let error = try #require(await sendError(transport))
        #expect(error.category == .invalidInput)
        #expect(error.code == "invalid_email")
        #expect(error.message.contains("Check"))
    }

    @Test func mapsInactiveRecipientToInvalidEmailAskingForAnotherAddress() async throws {
        let transport = try RecordingTransport(status: 422, fixture: "postmark_error_422_inactive_recipient")
        let error = try #require(await sendError(transport))
        #expect(error.category == .invalidInput)
        #expect(error.code == "invalid_email")
        #expect(error.message.contains("different email address"))
        // Postmark's own text lists addresses and is for developers.
        #expect(!error.message.contains("Inactive recipients"))
    }

    @Test func mapsSenderSignatureProblemToMisconfigured() async throws {
        let transport = try RecordingTransport(status: 422, fixture: "postmark_error_422_sender_signature")
        let error = try #require(await sendError(transport))
        #expect(error.category == .upstreamFailed)
        #expect(error.code == "email_failed")
    }

    @Test func mapsRateLimitToUnavailableWithRetryAfter() async throws {
        let transport = try RecordingTransport(
            status: 429, headers: [("Retry-After", "20")], fixture: "postmark_error_429_rate_limit")
        let error = try #require(await sendError(transport))
        #expect(error.category == .unavailable(retryAfterSeconds: 20))
        #expect(error.code == "email_unavailable")
    }

    @Test(arguments: [500, 502, 503, 504])
    func mapsServerErrorsToUnavailable(status: Int) async throws {
        let transport = RecordingTransport(status: status, body: Data("<html>oops</html>".utf8))
        let error = try #require(await sendError(transport))
        #expect(error.category == .unavailable(retryAfterSeconds: nil))
        #expect(error.code == "email_unavailable")
    }

    @Test func mapsTimeoutAndUnreachableToUnavailable() async throws {
        for failure in [ProviderTransportError.timedOut, .unreachable("connection refused")] {
            let transport = RecordingTransport(failing: failure)
            let error = try #require(await sendError(transport))
            #expect(error.category == .unavailable(retryAfterSeconds: nil))
            #expect(error.code == "email_unavailable")
            #expect(await transport.requests.count == 1, "no retry inside the adapter")
        }
    }

    @Test func treatsNonZeroErrorCodeInA200AsFailure() async throws {
        let transport = RecordingTransport(status: 200, body: Data(#"{"ErrorCode":300,"Message":"Invalid"}"#.utf8))
        #expect(await sendError(transport)?.code == "invalid_email")
    }

    @Test func unexpectedStatusIsMisconfiguredNotLeakingBody() async throws {
        let transport = RecordingTransport(status: 404, body: Data("token \(Self.token)".utf8))
        let error = try #require(await sendError(transport))
        #expect(error.code == "email_failed")
        #expect(!error.message.contains(Self.token))
    }

    @Test(arguments: ["a@x.org, b@y.org", "", "no-at-sign", "a@x.org\r\nBcc: c@z.org", "<a@x.org>", "a@@x.org"])
    func refusesImplausibleAddressesWithoutCallingPostmark(address: String) async throws {
        let transport = try RecordingTransport(status: 200, fixture: "postmark_send_200")
        let error = try #require(await sendError(transport, to: address))
        #expect(error.code == "invalid_email")
        #expect(await transport.requests.isEmpty)
    }
}
