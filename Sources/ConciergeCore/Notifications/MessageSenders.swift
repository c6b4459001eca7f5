/// Sends a text message. Implementations: the dev outbox and Twilio's Messages API.
public protocol SMSSender: NotificationSender {
    /// Throws a `ConciergeError` saying whether the failure is the number's (invalid input) or
    /// the provider's (unavailable).
    func sendSMS(to phone: PhoneNumber, body: String) async throws

    /// The same, for one notification of the outbox: `deliveryKey` is the same on every attempt
    /// to deliver that notification (its dedupe key), so a sender that can drop repeats by it
    /// delivers exactly once across crashes. The dev outbox does; a sender that cannot (Twilio)
    /// keeps the default, which ignores the key: at least once.
    func sendSMS(to phone: PhoneNumber, body: String, deliveryKey: String?) async throws
}

extension SMSSender {
    /// Senders that cannot use the key deliver at least once.
    public func sendSMS(to phone: PhoneNumber, body: String, deliveryKey: String?) async throws {
        try await sendSMS(to: phone, body: body)
    }
}

/// What the notification outbox asks of every sender, email or SMS.
public protocol NotificationSender: Sendable {
    /// True when the receiving end itself keeps one message per delivery key (the dev outbox),
    /// so a second delivery of one notification can never show twice. The outbox worker then
    /// takes a killed worker's claim over within seconds instead of waiting out a send's lease.
    var dropsRepeatedDeliveries: Bool { get }
}

extension NotificationSender {
    /// Receivers may show a repeated send twice.
    public var dropsRepeatedDeliveries: Bool { false }
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
