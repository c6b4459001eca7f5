import ConciergeCore
import ConciergeProviders
import Foundation
import Hummingbird
import Logging
import Testing

/// The real AsyncHTTPClient transport against a local Hummingbird server that answers like
/// Twilio: real sockets, real headers, real time-outs; no internet.
@Suite struct AsyncHTTPClientTransportTests {
    /// What the stub server received, for checking the bytes that went over the wire.
    actor Received {
        private(set) var authorization: String?
        private(set) var contentType: String?
        private(set) var body: String?

        func record(authorization: String?, contentType: String?, body: String) {
            self.authorization = authorization
            self.contentType = contentType
            self.body = body
        }
    }

    private static func stubRouter(received: Received, created: Data) -> Router<BasicRequestContext> {
        let router = Router()
        router.post("/2010-04-01/Accounts/:accountSid/Messages.json") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 64 * 1024)
            await received.record(
                authorization: request.headers[.authorization], contentType: request.headers[.contentType],
                body: String(buffer: body))
            return Response(
                status: .created, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(bytes: created)))
        }
        // The stubs stall far longer than any time-out, so finishing early proves the time-out
        // worked without timing the test tightly (CI machines are busy).
        router.post("/slow/2010-04-01/Accounts/:accountSid/Messages.json") { _, _ -> Response in
            try await Task.sleep(for: .seconds(20))
            return Response(status: .created)
        }
        // Sends the head and the start of the body, then stalls.
        router.post("/stalled/2010-04-01/Accounts/:accountSid/Messages.json") { _, _ -> Response in
            Response(
                status: .created, headers: [.contentType: "application/json"],
                body: ResponseBody(contentLength: 64) { writer in
                    try await writer.write(ByteBuffer(string: #"{"sid":"#))
                    try await Task.sleep(for: .seconds(20))
                })
        }
        router.post("/limited/2010-04-01/Accounts/:accountSid/Messages.json") { _, _ -> Response in
            Response(
                status: .tooManyRequests, headers: [.retryAfter: "7", .contentType: "application/json"],
                body: .init(
                    byteBuffer: ByteBuffer(string: #"{"code":20429,"message":"Too many requests","status":429}"#)))
        }
        return router
    }

    /// Runs a stub server on an ephemeral port for the duration of `body`, then stops it.
    private static func withStubServer(
        _ router: Router<BasicRequestContext>, _ body: @Sendable (_ baseURL: String) async throws -> Void
    ) async throws {
        var quiet = Logger(label: "twilio-stub")
        quiet.logLevel = .critical
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                if let port = channel.localAddress?.port { portContinuation.yield(port) }
                portContinuation.finish()
            },
            logger: quiet
        )
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await app.run() }
            // Cancelling the group is how the server is stopped, whichever way `body` ends.
            defer { group.cancelAll() }
            var iterator = ports.makeAsyncIterator()
            let port = try #require(await iterator.next(), "the stub server did not report its port")
            try await body("http://127.0.0.1:\(port)")
        }
    }

    private static func sender(baseURL: String, timeout: Duration = .seconds(5)) -> TwilioMessagesSender {
        var quiet = Logger(label: "twilio-test")
        quiet.logLevel = .critical
        return TwilioMessagesSender(
            credentials: TwilioTestValues.credentials, from: TwilioTestValues.from,
            transport: AsyncHTTPClientTransport(), baseURL: baseURL, timeout: timeout, logger: quiet)
    }

    @Test func realTransportSendsSMSToLocalStubLikeTwilio() async throws {
        let received = Received()
        let router = Self.stubRouter(received: received, created: try Fixture.data("messages_create_201"))

        try await Self.withStubServer(router) { baseURL in
            try await Self.sender(baseURL: baseURL).sendSMS(to: TwilioTestValues.phone, body: "Your code: 123456")
        }

        #expect(await received.authorization == TwilioTestValues.expectedAuthorization)
        #expect(await received.contentType == "application/x-www-form-urlencoded")
        #expect(await received.body == "To=%2B15017122661&From=%2B15005550006&Body=Your%20code%3A%20123456")
    }

    @Test func realTransportPassesStatusAndRetryAfterThrough() async throws {
        let router = Self.stubRouter(received: Received(), created: Data())

        try await Self.withStubServer(router) { baseURL in
            let error = await #expect(throws: ConciergeError.self) {
                try await Self.sender(baseURL: baseURL + "/limited").sendSMS(to: TwilioTestValues.phone, body: "1")
            }
            #expect(error?.category == .unavailable(retryAfterSeconds: 7))
        }
    }

    @Test(arguments: ["/slow", "/stalled"])
    func realTransportTimesOutOnSlowStub(path: String) async throws {
        let router = Self.stubRouter(received: Received(), created: Data())

        try await Self.withStubServer(router) { baseURL in
            let clock = ContinuousClock()
            let started = clock.now
            let error = await #expect(throws: ConciergeError.self) {
                try await Self.sender(baseURL: baseURL + path, timeout: .milliseconds(200))
                    .sendSMS(to: TwilioTestValues.phone, body: "123456")
            }
            let elapsed = clock.now - started

            #expect(error?.category == .unavailable(retryAfterSeconds: nil))
            #expect(error?.code == "sms_unavailable")
            // Well before the stub's 20 s: the time-out, not the stub, ended it (loose, for busy CI).
            #expect(elapsed < .seconds(15), "gave up after \(elapsed), not near the 200 ms time-out")
        }
    }

    @Test func realTransportReportsTimeOutAndRefusedConnectionAsTransportErrors() async throws {
        let router = Self.stubRouter(received: Received(), created: Data())
        let transport = AsyncHTTPClientTransport()
        let request = ProviderHTTPRequest(
            method: "POST", url: "", headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: Data("To=%2B1".utf8))
        let stoppedBaseURL = ValueBox<String>()

        try await Self.withStubServer(router) { baseURL in
            var slow = request
            slow.url = baseURL + "/slow/2010-04-01/Accounts/AC1/Messages.json"
            await #expect(throws: ProviderTransportError.timedOut) {
                _ = try await transport.send(slow, timeout: .milliseconds(200))
            }
            await stoppedBaseURL.set(baseURL)
        }

        // The server is gone: nothing listens on its port any more. AsyncHTTPClient keeps
        // retrying the connection until the deadline and then reports why it failed.
        var refused = request
        refused.url = try #require(await stoppedBaseURL.value) + "/2010-04-01/Accounts/AC1/Messages.json"
        let error = await #expect(throws: ProviderTransportError.self) {
            _ = try await transport.send(refused, timeout: .milliseconds(300))
        }
        // Usually the refusal itself comes back; on a busy machine the deadline can pass first.
        switch error {
        case .unreachable?, .timedOut?: break
        case nil: Issue.record("expected a transport error")
        }
    }
}

/// Carries a value out of a `@Sendable` closure.
actor ValueBox<Value: Sendable> {
    private(set) var value: Value?
    func set(_ value: Value) { self.value = value }
}
