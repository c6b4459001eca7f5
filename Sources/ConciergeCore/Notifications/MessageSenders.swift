/// Sends a text message. Implementations: the dev outbox and Twilio's Messages API.
public protocol SMSSender: Sendable {
    /// Throws a `ConciergeError` saying whether the failure is the number's (invalid input) or
    /// the provider's (unavailable).
    func sendSMS(to phone: PhoneNumber, body: String) async throws
}

/// A provider that generates, sends and checks one-time codes itself (Twilio Verify). Our own
/// limits still apply on top of it.
public protocol RemoteCodeVerification: Sendable {
    func startVerification(to phone: PhoneNumber) async throws
    /// True when the provider approved the code; false for a wrong code.
    func checkVerification(phone: PhoneNumber, code: String) async throws -> Bool
}

/// Who generates and checks sign-in codes.
public enum CodeAuthority: Sendable {
    /// Concierge generates the code, stores its keyed hash and sends it as an SMS.
    case local(any SMSSender)
    /// The provider generates and checks it.
    case remote(any RemoteCodeVerification)
}
