import ConciergeCore
import ConciergeProviders
import Foundation
import Testing

/// Values shared by the Twilio tests. The SIDs are the placeholders Twilio's own OpenAPI
/// examples use, so they match the recorded fixtures; the token is fake but token-shaped.
enum TwilioTestValues {
    static let accountSID = "ACaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
    static let authToken = "f00dfeedf00dfeedf00dfeedf00dfeed"
    static let serviceSID = "VAaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
    static let credentials = TwilioCredentials(accountSID: accountSID, authToken: authToken)
    /// base64("ACaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa:f00dfeedf00dfeedf00dfeedf00dfeed"), worked out
    /// independently of the code under test.
    static let expectedAuthorization =
        "Basic QUNhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYTpmMDBkZmVlZGYwMGRmZWVkZjAwZGZlZWRmMDBkZmVlZA=="
    /// The `to` of the recorded examples.
    static let phone = PhoneNumber(trustedE164: "+15017122661")
    /// Twilio's magic test sender number.
    static let from = "+15005550006"
}

/// Recorded provider answers, copied (trimmed) from Twilio's OpenAPI examples into Fixtures/.
enum Fixture {
    static func data(_ name: String) throws -> Data {
        let url = try #require(
            Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures"),
            "missing fixture \(name).json")
        return try Data(contentsOf: url)
    }

    /// A Twilio error document in the shape of the recorded `createVerificationRateLimitExceeded`
    /// example (`verify_create_verification_429.json`), for codes the spec has no example of.
    /// Codes and texts follow Twilio's error reference; the texts are never shown to people.
    static func twilioError(code: Int, status: Int, message: String) throws -> Data {
        try JSONSerialization.data(withJSONObject: [
            "code": code, "message": message, "more_info": "https://www.twilio.com/docs/errors/\(code)",
            "status": status,
        ])
    }
}

/// A `ProviderHTTPTransport` that answers from a script and remembers what it was asked, so
/// tests can check the exact bytes an adapter sends without any network.
actor RecordingTransport: ProviderHTTPTransport {
    private let answer: @Sendable (ProviderHTTPRequest) throws -> ProviderHTTPResponse
    private(set) var requests: [ProviderHTTPRequest] = []
    private(set) var timeouts: [Duration] = []

    init(answer: @escaping @Sendable (ProviderHTTPRequest) throws -> ProviderHTTPResponse) {
        self.answer = answer
    }

    init(status: Int, headers: [(String, String)] = [], body: Data = Data()) {
        self.init { _ in ProviderHTTPResponse(status: status, headers: headers, body: body) }
    }

    init(status: Int, headers: [(String, String)] = [], fixture: String) throws {
        let body = try Fixture.data(fixture)
        self.init(status: status, headers: headers, body: body)
    }

    init(failing error: ProviderTransportError) {
        self.init { _ in throw error }
    }

    func send(_ request: ProviderHTTPRequest, timeout: Duration) async throws -> ProviderHTTPResponse {
        requests.append(request)
        timeouts.append(timeout)
        return try answer(request)
    }

    var onlyRequest: ProviderHTTPRequest {
        get throws {
            try #require(requests.count == 1, "expected exactly one request, got \(requests.count)")
            return requests[0]
        }
    }
}

extension ProviderHTTPRequest {
    var bodyText: String? { body.map { String(decoding: $0, as: UTF8.self) } }
}
