import ConciergeCore
import ConciergeProviders
import Foundation
import Logging
import Testing

/// The mapping rules table and the retry policy, driven through the public clients for every
/// call they make, so only observable behaviour is pinned down.
@Suite struct GoogleErrorMappingTests {
    private typealias Values = GoogleTestValues

    /// Every call the Google adapters make.
    enum Call: String, CaseIterable, CustomTestStringConvertible {
        case autocomplete
        case details
        case route

        var failedCode: String { self == .route ? "route_failed" : "places_failed" }
        var unavailableCode: String { self == .route ? "routing_unavailable" : "places_unavailable" }
        var testDescription: String { rawValue }

        func run(_ transport: RecordingTransport, logger: Logger = Logger(label: "test")) async throws {
            switch self {
            case .autocomplete:
                _ = try await Values.places(transport, logger: logger).autocomplete(
                    input: "Schiphol", near: nil, sessionToken: Values.sessionToken)
            case .details:
                _ = try await Values.places(transport, logger: logger).details(
                    placeId: Values.schipholId, sessionToken: Values.sessionToken)
            case .route:
                _ = try await Values.routes(transport, logger: logger).route(
                    from: Values.amsterdamCentraal, to: Values.schiphol, departure: Date(timeIntervalSince1970: 0))
            }
        }

        var successFixture: String {
            switch self {
            case .autocomplete: "google_autocomplete_200"
            case .details: "google_place_details_200"
            case .route: "google_routes_200"
            }
        }
    }

    private func failure(_ call: Call, _ transport: RecordingTransport, logger: Logger = Logger(label: "test")) async
        -> ConciergeError?
    {
        await #expect(throws: ConciergeError.self) { try await call.run(transport, logger: logger) }
    }

    // MARK: misconfiguration

    @Test(arguments: Call.allCases)
    func permissionDeniedIsMisconfiguredWithoutTheKey(call: Call) async throws {
        let logs = CapturedLogs()
        let transport = try RecordingTransport(status: 403, fixture: "google_error_403_permission_denied")

        let error = await failure(call, transport, logger: logs.logger)

        #expect(error?.category == .upstreamFailed)
        #expect(error?.code == call.failedCode)
        #expect(error?.message.contains("the maps provider is misconfigured") == true)
        #expect(error.map { !"\($0)".contains(Values.apiKey) } == true)
        #expect(error?.message.contains("blocked") == false, "Google's own message must not be echoed")
        // Not retried: the same key will be refused again.
        #expect(await transport.requests.count == 1)
        #expect(!logs.text.contains(Values.apiKey))
        #expect(logs.text.contains("PERMISSION_DENIED"))
    }

    @Test(arguments: Call.allCases)
    func unauthorizedAndInvalidKeyAreMisconfigured(call: Call) async throws {
        for (status, fixture) in [
            (401, "google_error_403_permission_denied"), (400, "google_error_400_api_key_invalid"),
        ] {
            let transport = try RecordingTransport(status: status, fixture: fixture)
            let error = await failure(call, transport)
            #expect(error?.code == call.failedCode)
            #expect(error?.message.contains("the maps provider is misconfigured") == true)
            #expect(await transport.requests.count == 1)
        }
    }

    @Test(arguments: [Call.autocomplete, .route])
    func otherClientErrorsAreUpstreamFailures(call: Call) async throws {
        let transport = try RecordingTransport(status: 400, fixture: "google_error_400_invalid_argument")

        let error = await failure(call, transport)

        #expect(error?.category == .upstreamFailed)
        #expect(error?.code == call.failedCode)
        #expect(error?.message.contains("Invalid session token") == false)
        #expect(await transport.requests.count == 1)
    }

    // MARK: unavailable

    @Test(arguments: Call.allCases)
    func resourceExhaustedIsUnavailableAfterOneRetry(call: Call) async throws {
        let transport = try RecordingTransport(
            status: 429, headers: [("Retry-After", "30")], fixture: "google_error_429_resource_exhausted")

        let error = await failure(call, transport)

        #expect(error?.category == .unavailable(retryAfterSeconds: 30))
        #expect(error?.code == call.unavailableCode)
        #expect(error?.message.contains("in 30 seconds") == true)
        #expect(await transport.requests.count == 2)
    }

    @Test(arguments: Call.allCases)
    func serverErrorIsUnavailableAfterOneRetry(call: Call) async throws {
        let transport = try RecordingTransport(status: 503, fixture: "google_error_503_unavailable")

        let error = await failure(call, transport)

        #expect(error?.category == .unavailable(retryAfterSeconds: nil))
        #expect(error?.code == call.unavailableCode)
        #expect(error?.message.contains("try again in a moment") == true)
        #expect(await transport.requests.count == 2)
    }

    @Test(arguments: Call.allCases)
    func gatewayHTMLIsUnavailable(call: Call) async {
        let transport = RecordingTransport(status: 502, body: Data("<html>Bad Gateway</html>".utf8))

        let error = await failure(call, transport)

        #expect(error?.category == .unavailable(retryAfterSeconds: nil))
        #expect(error?.code == call.unavailableCode)
    }

    @Test(arguments: Call.allCases)
    func timeOutIsUnavailableAfterOneRetry(call: Call) async {
        let transport = RecordingTransport(failing: .timedOut)

        let error = await failure(call, transport)

        #expect(error?.category == .unavailable(retryAfterSeconds: nil))
        #expect(error?.code == call.unavailableCode)
        #expect(await transport.requests.count == 2)
        #expect(await transport.timeouts == [.seconds(3), .seconds(3)])
    }

    @Test(arguments: Call.allCases)
    func unreachableIsUnavailable(call: Call) async {
        let transport = RecordingTransport(failing: .unreachable("connection refused"))

        let error = await failure(call, transport)

        #expect(error?.code == call.unavailableCode)
        #expect(await transport.requests.count == 2)
    }

    // MARK: retry

    @Test(arguments: Call.allCases)
    func oneRetryAfterServerErrorThenSuccess(call: Call) async throws {
        let answers = ScriptedAnswers([
            try ScriptedAnswers.response(status: 503, fixture: "google_error_503_unavailable"),
            try ScriptedAnswers.response(status: 200, fixture: call.successFixture),
        ])
        let transport = answers.transport

        try await call.run(transport)

        let requests = await transport.requests
        #expect(requests.count == 2)
        // The retry is the same request.
        #expect(requests.map(\.url) == [requests[0].url, requests[0].url])
        #expect(requests.map(\.bodyText) == [requests[0].bodyText, requests[0].bodyText])
    }

    @Test(arguments: Call.allCases)
    func oneRetryAfterTimeOutThenSuccess(call: Call) async throws {
        let answers = ScriptedAnswers([
            .failure(.timedOut), try ScriptedAnswers.response(status: 200, fixture: call.successFixture),
        ])
        let transport = answers.transport

        try await call.run(transport)

        #expect(await transport.requests.count == 2)
    }

    @Test func retryReturnsTheRetriedAnswer() async throws {
        let answers = ScriptedAnswers([
            try ScriptedAnswers.response(status: 429, fixture: "google_error_429_resource_exhausted"),
            try ScriptedAnswers.response(status: 200, fixture: "google_routes_200"),
        ])

        let estimate = try await Values.routes(answers.transport).route(
            from: Values.amsterdamCentraal, to: Values.schiphol, departure: Date(timeIntervalSince1970: 0))

        #expect(estimate == RouteEstimate(distanceMeters: 18342, durationSeconds: 1520))
    }

    @Test func retryStopsWhenTheCallerIsCancelled() async throws {
        let transport = RecordingTransport(failing: .timedOut)
        let client = GooglePlacesClient(key: Values.key, transport: transport, retryBackoff: .seconds(60))

        let task = Task { try await client.details(placeId: Values.schipholId, sessionToken: nil) }
        // Wait for the first attempt, then cancel during the backoff.
        while await transport.requests.isEmpty { await Task.yield() }
        task.cancel()

        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(await transport.requests.count == 1)
    }

    // MARK: secrets

    @Test func theKeyNeverAppearsInAnyErrorOrLog() async throws {
        let logs = CapturedLogs()
        let bodies: [(Int, Data)] = [
            (400, try Fixture.data("google_error_400_api_key_invalid")),
            (400, try Fixture.data("google_error_400_invalid_argument")),
            (401, try Fixture.data("google_error_403_permission_denied")),
            (403, try Fixture.data("google_error_403_permission_denied")),
            (404, try Fixture.data("google_error_404_not_found")),
            (429, try Fixture.data("google_error_429_resource_exhausted")),
            (500, Data("key=\(Values.apiKey)".utf8)),
            (503, try Fixture.data("google_error_503_unavailable")),
            (200, Data("not json \(Values.apiKey)".utf8)),
        ]
        for call in Call.allCases {
            for (status, body) in bodies {
                do {
                    try await call.run(RecordingTransport(status: status, body: body), logger: logs.logger)
                } catch {
                    for text in ["\(error)", String(reflecting: error), error.localizedDescription] {
                        #expect(!text.contains(Values.apiKey), "\(call) \(status)")
                        #expect(!text.contains("AIza"), "\(call) \(status)")
                    }
                }
            }
            do {
                try await call.run(RecordingTransport(failing: .timedOut), logger: logs.logger)
            } catch {
                #expect(!"\(error)".contains(Values.apiKey))
            }
        }
        #expect(!logs.text.isEmpty)
        #expect(!logs.text.contains(Values.apiKey))
    }
}
