public import ConciergeCore
import Foundation
public import Logging

/// Sends our own sign-in codes through Twilio's Programmable Messaging API:
/// `POST {base}/2010-04-01/Accounts/{AccountSid}/Messages.json` with `To`, `From`, `Body`.
///
/// A send is never retried here: Twilio has no idempotency key, so a retry after a time-out can
/// deliver the same code twice and costs money; the person can ask for a new code instead.
/// Booking texts from the notification outbox keep the protocol's default for the delivery key
/// (ignored, as Twilio cannot drop repeats by it): a crash after Twilio accepted the message but
/// before the outbox marked it sent sends it again once — at-least-once.
public struct TwilioMessagesSender: SMSSender {
    public static let defaultBaseURL = "https://api.twilio.com"

    private let endpoint: TwilioEndpoint
    private let from: String

    /// - Parameters:
    ///   - from: the sending Twilio number in E.164 form (or an alphanumeric sender id where
    ///     the destination country allows one).
    ///   - baseURL: injectable for tests against a local stub server.
    ///   - timeout: the whole exchange; a person is waiting on the sign-in screen.
    public init(
        credentials: TwilioCredentials,
        from: String,
        transport: any ProviderHTTPTransport = AsyncHTTPClientTransport(),
        baseURL: String = TwilioMessagesSender.defaultBaseURL,
        timeout: Duration = .seconds(10),
        logger: Logger = Logger(label: "concierge.providers.twilio")
    ) {
        self.endpoint = TwilioEndpoint(
            credentials: credentials, transport: transport, baseURL: baseURL, timeout: timeout, logger: logger)
        self.from = from
    }

    public func sendSMS(to phone: PhoneNumber, body: String) async throws {
        let accountPath = FormEncoding.percentEncode(endpoint.credentials.accountSID)
        let response = try await endpoint.post(
            "/2010-04-01/Accounts/\(accountPath)/Messages.json",
            fields: [("To", phone.e164), ("From", from), ("Body", body)], operation: "Messages send")
        guard (200...299).contains(response.status) else {
            throw TwilioErrorMapping.failure(response, calling: "Messages send", logger: endpoint.logger)
        }
    }
}
