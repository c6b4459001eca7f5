/// The numbers of password and provider sign-in. The throttles are configuration; the token
/// lifetimes are the product's (EVENTS.md, PLATFORM.md).
public struct AccountPolicy: Sendable, Equatable {
    /// Password sign-ins per login (email or user name, whether or not it exists) per 15 minutes.
    public var signInsPerAccount = 10
    /// Sign-ins per client network (an IPv4 address, an IPv6 /64) per 15 minutes.
    public var signInsPerNetwork = 50
    public var throttleWindow = 15 * 60
    /// Sign-ups, registrations and password resets (each costs a bcrypt) per client network per
    /// hour, and of all networks together per hour; checked before anything is hashed.
    public var hashedWritesPerNetwork = 20
    public var hashedWritesPerHour = 1000
    public var emailVerificationLifetime = 24 * 3600
    public var passwordResetLifetime = 3600
    /// Where links in account emails point, e.g. `https://concierge.example.com`.
    public var publicURL = "http://127.0.0.1:8080"

    public init() {}

    func signInLimits(login: String, clientIP: String) -> [RateLimit] {
        [
            RateLimit(
                key: "account-sign-in:login:\(login)", limit: signInsPerAccount, window: throttleWindow,
                message: "Too many sign-in attempts for this account."),
            RateLimit(
                key: "account-sign-in:net:\(ClientNetwork.key(for: clientIP))", limit: signInsPerNetwork,
                window: throttleWindow, message: "Too many sign-in attempts from your network."),
        ]
    }

    /// The limits a request passes before its password is hashed (sign-up, register, reset).
    /// Without an address (a caller that has none) only the global limit counts.
    func hashingLimits(clientIP: String?) -> [RateLimit] {
        let network = clientIP.map {
            RateLimit(
                key: "account-hashing:net:\(ClientNetwork.key(for: $0))", limit: hashedWritesPerNetwork, window: 3600,
                message: "Too many accounts were created or passwords reset from your network in the last hour.")
        }
        let everyone = RateLimit(
            key: "account-hashing:all", limit: hashedWritesPerHour, window: 3600,
            message: "We are receiving unusually many sign-ups right now, so they are paused.")
        return (network.map { [$0] } ?? []) + [everyone]
    }

    /// Emails we send on request (verification resends, password resets) per address and per
    /// network, so the endpoints cannot be used to flood an inbox.
    func mailLimits(email: String, clientIP: String) -> [RateLimit] {
        [
            RateLimit(
                key: "account-mail:to:\(email)", limit: 5, window: 3600,
                message: "Several emails were sent to this address in the last hour."),
            RateLimit(
                key: "account-mail:net:\(ClientNetwork.key(for: clientIP))", limit: 30, window: 3600,
                message: "Too many emails were requested from your network in the last hour."),
        ]
    }
}
