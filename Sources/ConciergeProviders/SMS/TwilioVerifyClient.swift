public import ConciergeCore
import Foundation
public import Logging

/// Twilio Verify v2: Twilio generates, sends and checks the sign-in code.
///
/// `POST {base}/v2/Services/{ServiceSid}/Verifications` (`To`, `Channel=sms`) starts or re-sends;
/// `POST {base}/v2/Services/{ServiceSid}/VerificationCheck` (`To`, `Code`) checks. Neither is
/// retried: a repeated start re-sends the SMS and counts towards Twilio's send limit, a repeated
/// check counts towards its five-attempt limit.
public struct TwilioVerifyClient: RemoteCodeVerification {
    public static let defaultBaseURL = "https://verify.twilio.com"

    private let endpoint: TwilioEndpoint
    private let serviceSID: String
    private var logger: Logger { endpoint.logger }

    /// Throws when `serviceSID` is not a Verify service SID, so a configuration mistake (an
    /// account SID or a messaging service pasted by accident) stops the server at start-up
    /// instead of failing every sign-in with a 404.
    public init(
        credentials: TwilioCredentials,
        serviceSID: String,
        transport: any ProviderHTTPTransport = AsyncHTTPClientTransport(),
        baseURL: String = TwilioVerifyClient.defaultBaseURL,
        timeout: Duration = .seconds(10),
        logger: Logger = Logger(label: "concierge.providers.twilio")
    ) throws(TwilioConfigurationError) {
        guard Self.isServiceSID(serviceSID) else {
            throw TwilioConfigurationError(
                message:
                    "The Twilio Verify service SID is not valid: it must be \"VA\" followed by 32 hexadecimal characters (34 in all); the configured value has \(serviceSID.count) characters and starts with \"\(serviceSID.prefix(2))\". Copy it from the Twilio console under Verify > Services."
            )
        }
        self.endpoint = TwilioEndpoint(
            credentials: credentials, transport: transport, baseURL: baseURL, timeout: timeout, logger: logger)
        self.serviceSID = serviceSID
    }

    public func startVerification(to phone: PhoneNumber) async throws {
        let response = try await post(
            "Verifications", fields: [("To", phone.e164), ("Channel", "sms")], operation: "Verify start")
        guard (200...299).contains(response.status) else {
            throw TwilioErrorMapping.failure(response, calling: "Verify start", logger: logger)
        }
    }

    public func checkVerification(phone: PhoneNumber, code: String) async throws -> Bool {
        let response = try await post(
            "VerificationCheck", fields: [("To", phone.e164), ("Code", code)], operation: "Verify check")
        switch response.status {
        case 200...299:
            return try outcome(of: response)
        case 404:
            // Twilio deletes a verification once it is approved, expired or used up.
            throw ConciergeError.codeExpired
        case 429 where TwilioAPIError.code(in: response.body) == Self.maxCheckAttemptsCode:
            throw ConciergeError.tooManyAttempts
        default:
            throw TwilioErrorMapping.failure(response, calling: "Verify check", logger: logger)
        }
    }

    /// `approved` with `valid` is the only yes. A wrong code leaves the verification `pending`;
    /// the terminal statuses mean the code can no longer be used, so they get the errors the
    /// person can act on instead of a misleading "wrong code".
    private func outcome(of response: ProviderHTTPResponse) throws -> Bool {
        guard let check = try? JSONDecoder().decode(VerificationCheck.self, from: response.body) else {
            logger.error(
                "Twilio Verify check answered with an unreadable body", metadata: ["http_status": "\(response.status)"])
            throw TwilioErrorMapping.unexpectedResponse
        }
        switch check.status {
        case "approved": return check.valid == true
        case "max_attempts_reached": throw ConciergeError.tooManyAttempts
        case "expired", "canceled", "deleted": throw ConciergeError.codeExpired
        default: return false
        }
    }

    private func post(_ resource: String, fields: [(String, String)], operation: String) async throws
        -> ProviderHTTPResponse
    {
        try await endpoint.post("/v2/Services/\(serviceSID)/\(resource)", fields: fields, operation: operation)
    }

    private struct VerificationCheck: Decodable {
        let status: String
        let valid: Bool?
    }

    /// Verify's "max check attempts reached" (five wrong codes).
    static let maxCheckAttemptsCode = 60202

    /// `^VA[0-9a-fA-F]{32}$`, the pattern in Twilio's OpenAPI description.
    static func isServiceSID(_ value: String) -> Bool {
        let utf8 = Array(value.utf8)
        guard utf8.count == 34, utf8[0] == UInt8(ascii: "V"), utf8[1] == UInt8(ascii: "A") else { return false }
        return utf8.dropFirst(2).allSatisfy { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
        }
    }
}

/// A Twilio setting that cannot work, reported when the adapter is built. Its message is for
/// the operator reading the start-up log and never contains the secret values themselves.
public struct TwilioConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String

    public init(message: String) {
        self.message = message
    }

    public var description: String { message }
}
