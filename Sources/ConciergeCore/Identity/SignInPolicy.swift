import ConciergeModels

/// The numbers of SMS-code sign-in. Every limit is configuration; the defaults are the product's.
public struct SignInPolicy: Sendable, Equatable {
    public var codeLength = 6
    /// How long a code can be used, in seconds.
    public var codeLifetime = 600
    /// Wrong guesses after which a code is burned.
    public var maxWrongGuesses = 5
    /// Minimum seconds between two sends to one phone.
    public var resendInterval = 30
    public var sendsPerPhonePerHour = 5
    public var sendsPerPhonePerDay = 10
    public var sendsPerIPPerHour = 30
    public var verificationsPerIPPerHour = 120
    /// Codes sent to all phones together per hour: a circuit breaker against SMS pumping, where
    /// a flood of numbers (each within its own limits) runs up the operator's bill.
    public var sendsPerHour = 1000
    /// The regions (ISO 3166-1 alpha-2) whose numbers get codes; empty means every region. Regions
    /// that share a calling code (+1, +7) are allowed together, since the code alone cannot tell
    /// them apart.
    public var smsRegions: Set<String> = ["CH", "LI", "DE", "AT", "FR", "IT"]
    /// Session lifetime in seconds (7 days).
    public var sessionLifetime = 7 * 24 * 3600

    public init() {}
}

/// One sliding-window limit: at most `limit` events for `key` in the last `window` seconds.
public struct RateLimit: Sendable, Equatable {
    public let key: String
    public let limit: Int
    public let window: Int
    /// What the person is told when this limit is hit.
    public let message: String

    public init(key: String, limit: Int, window: Int, message: String) {
        self.key = key
        self.limit = limit
        self.window = window
        self.message = message
    }
}

extension SignInPolicy {
    /// Limits that a code send must pass, most specific first. Keys are namespaced so one table
    /// can hold every kind of event.
    /// Client addresses are counted by network (`ClientNetwork`): one IPv6 host can choose any
    /// of the 2^64 addresses of its /64.
    func sendLimits(phone: PhoneNumber, ip: String) -> [RateLimit] {
        [
            RateLimit(
                key: "sms-send:phone:\(phone.e164)", limit: sendsPerPhonePerHour, window: 3600,
                message: "Too many codes were sent to this number in the last hour."),
            RateLimit(
                key: "sms-send:phone:\(phone.e164)", limit: sendsPerPhonePerDay, window: 86_400,
                message: "Too many codes were sent to this number today."),
            RateLimit(
                key: "sms-send:ip:\(ClientNetwork.key(for: ip))", limit: sendsPerIPPerHour, window: 3600,
                message: "Too many codes were requested from your network in the last hour."),
            RateLimit(
                key: "sms-send:all", limit: sendsPerHour, window: 3600,
                message: "We are sending unusually many codes right now, so sign-in by SMS is paused."),
        ]
    }

    func verifyLimits(ip: String) -> [RateLimit] {
        [
            RateLimit(
                key: "sms-verify:ip:\(ClientNetwork.key(for: ip))", limit: verificationsPerIPPerHour, window: 3600,
                message: "Too many sign-in attempts from your network in the last hour.")
        ]
    }
}

extension SignInPolicy {
    /// Whether a code may be sent to this number: its calling code belongs to an allowed region.
    func sendsCodes(to phone: PhoneNumber) -> Bool {
        smsRegions.isEmpty
            || CountryCode.all.contains { smsRegions.contains($0.regionCode) && phone.e164.hasPrefix($0.dialCode) }
    }

    /// The allowed regions' names, for the refusal's message.
    var smsRegionNames: String {
        CountryCode.all.filter { smsRegions.contains($0.regionCode) }.map(\.name).joined(separator: ", ")
    }
}
