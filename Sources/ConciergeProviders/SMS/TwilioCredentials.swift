import Foundation

/// The account SID and auth token Twilio's REST APIs authenticate with (HTTP Basic).
///
/// The type never prints its contents: `description`, `debugDescription` and its reflection
/// are redacted, so interpolating it into a log line or an error cannot leak the token.
public struct TwilioCredentials: Sendable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    public let accountSID: String
    public let authToken: String

    public init(accountSID: String, authToken: String) {
        self.accountSID = accountSID
        self.authToken = authToken
    }

    /// `Authorization` header value: `Basic base64(accountSID:authToken)`.
    public var basicAuthorizationHeaderValue: String {
        "Basic " + Data("\(accountSID):\(authToken)".utf8).base64EncodedString()
    }

    public var description: String { "TwilioCredentials(redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

extension TwilioCredentials {
    /// A form-encoded POST with these credentials, the shape of every Twilio call we make.
    func formPOST(url: String, fields: [(String, String)]) -> ProviderHTTPRequest {
        ProviderHTTPRequest(
            method: "POST",
            url: url,
            headers: [
                ("Authorization", basicAuthorizationHeaderValue),
                ("Content-Type", "application/x-www-form-urlencoded"),
                ("Accept", "application/json"),
            ],
            body: FormEncoding.body(fields)
        )
    }
}
