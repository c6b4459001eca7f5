import Foundation
import Logging

/// What both Twilio adapters share: credentials, transport, base URL, time-out and the one way
/// a form POST is sent and its transport failures mapped.
struct TwilioEndpoint: Sendable {
    let credentials: TwilioCredentials
    let transport: any ProviderHTTPTransport
    let baseURL: String
    let timeout: Duration
    let logger: Logger

    init(
        credentials: TwilioCredentials, transport: any ProviderHTTPTransport, baseURL: String, timeout: Duration,
        logger: Logger
    ) {
        self.credentials = credentials
        self.transport = transport
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.timeout = timeout
        self.logger = logger
    }

    /// POSTs `fields` form-encoded to `baseURL + path`; a time-out or unreachable host becomes
    /// the mapped `ConciergeError`. The caller judges the HTTP status.
    func post(_ path: String, fields: [(String, String)], operation: String) async throws -> ProviderHTTPResponse {
        let request = credentials.formPOST(url: baseURL + path, fields: fields)
        do {
            return try await transport.send(request, timeout: timeout)
        } catch let error as ProviderTransportError {
            throw TwilioErrorMapping.failure(error, calling: operation, logger: logger)
        }
    }
}
