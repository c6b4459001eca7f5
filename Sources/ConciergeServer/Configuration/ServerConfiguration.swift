public import ConciergeCore
import ConciergeModels
import ConciergeProviders
public import ConciergeStore
import Foundation
public import Logging

/// Everything the server needs to start, read once from the environment (and the matching
/// flags, which the CLI folds into the same dictionary). Parsing fails fast with a
/// `ConfigurationError` naming the variable.
public struct ServerConfiguration: Sendable {
    public enum Mode: String, Sendable, CaseIterable {
        case dev
        case production
    }

    public enum Storage: Sendable, Equatable {
        case sqlite(path: String, synchronous: SQLiteSynchronous = .full)
        case postgres(PostgresURL)
    }

    public enum SMSProvider: Sendable, Equatable {
        case devOutbox
        case twilioMessages(accountSID: String, authToken: String, from: String)
        case twilioVerify(accountSID: String, authToken: String, serviceSID: String)
    }

    public var host: String
    public var port: Int
    public var mode: Mode
    public var storage: Storage
    /// Nil in dev until the server generates (or loads) its own.
    public var secret: String?
    public var publicURL: String
    public var logLevel: Logger.Level
    public var logFormat: LogFormat
    /// Who may read /metrics: a bearer token on the main port, or a port of its own.
    public var metrics: MetricsExposure
    public var autoMigrate: Bool
    public var trustProxy: Bool
    /// How many proxies in a row append to X-Forwarded-For (a CDN and a load balancer: 2).
    public var trustedProxyHops: Int
    /// Seconds a connection may sit idle (a half-sent request included) before it is closed.
    public var httpIdleTimeout: Int
    /// Seconds `/ready` answers 503 after SIGTERM before the port closes (`ShutdownDrain`).
    public var drainSeconds: Int
    public var signIn: SignInPolicy
    public var sms: SMSProvider
    /// Rides prices; from CONCIERGE_TARIFF_PATH or the built-in standard.
    public var tariff: Tariff
    /// When set, places and routes come from Google instead of the embedded defaults.
    public var googleMapsAPIKey: String?
    public var bookingRules: BookingRules
    /// Places and pricing requests per client network per minute (0: no limit).
    public var publicReadsPerMinute: Int
    /// Order-creating requests per client network per minute, every vertical together (0: off).
    public var ordersPerNetworkPerMinute: Int
    public var payments: PaymentProviderChoice
    public var workerInterval: Int
    public var email: EmailProviderChoice
    /// Nil turns the admin API off.
    public var adminToken: String?
    public var accounts: AccountsConfiguration
    /// The variables as given, for the settings a vertical parses itself when it mounts
    /// (`VerticalModule.configurationVariables`), so adding a vertical does not touch this file.
    public var environment: [String: String]

    public enum EmailProviderChoice: Sendable, Equatable {
        case devOutbox
        case smtp(url: String)
        case postmark(token: String, from: String)
    }

    public enum LogFormat: String, Sendable, CaseIterable {
        case text
        case json
    }

    /// Where Prometheus scrapes: nowhere, the main port behind a bearer token, or a port of its own.
    public enum MetricsExposure: Sendable, Equatable {
        case off
        case bearerToken(String)
        case separatePort(Int)
    }

    public enum PaymentProviderChoice: Sendable, Equatable {
        case sandbox
        case mollie(apiKey: String)
        case stripe(secretKey: String, webhookSecrets: [String])
    }

    /// The defaults: dev mode, SQLite at `./concierge.sqlite`, dev outbox.
    public init() {
        try! self.init(environment: [:])
    }

    public init(environment: [String: String]) throws(ConfigurationError) {
        self.environment = environment
        var reader = EnvironmentReader(environment)
        host = reader.string("CONCIERGE_HOST")
        port = try reader.integer("CONCIERGE_PORT", in: 0...65535)
        mode = try reader.choice("CONCIERGE_MODE", Mode.self)
        if let url = reader.optional("DATABASE_URL") {
            do {
                storage = .postgres(try PostgresURL(url))
            } catch {
                throw ConfigurationError("DATABASE_URL", "\(error.description)")
            }
        } else {
            storage = .sqlite(
                path: reader.string("CONCIERGE_SQLITE_PATH"),
                synchronous: try reader.choice("CONCIERGE_SQLITE_SYNCHRONOUS", SQLiteSynchronous.self))
        }
        secret = reader.optional("CONCIERGE_SECRET")
        if let secret, secret.count < 32 {
            throw ConfigurationError("CONCIERGE_SECRET", "must be at least 32 characters (it has \(secret.count))")
        }
        if mode == .production, secret == nil {
            throw ConfigurationError(
                "CONCIERGE_SECRET", "is required in production; generate one with `openssl rand -base64 48`")
        }
        publicURL =
            reader.optional("CONCIERGE_PUBLIC_URL") ?? "http://\(host.contains(":") ? "[\(host)]" : host):\(port)"
        guard let url = URL(string: publicURL), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
            throw ConfigurationError("CONCIERGE_PUBLIC_URL", "must be an http(s) URL such as https://rides.example.com")
        }
        publicURL = publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL
        guard let level = Logger.Level(rawValue: reader.string("CONCIERGE_LOG_LEVEL").lowercased()) else {
            throw ConfigurationError(
                "CONCIERGE_LOG_LEVEL", "must be one of trace, debug, info, notice, warning, error, critical")
        }
        logLevel = level
        logFormat = try reader.choice("CONCIERGE_LOG_FORMAT", LogFormat.self)
        metrics = try Self.metricsExposure(reader, port: port)
        autoMigrate = try reader.boolean("CONCIERGE_AUTO_MIGRATE")
        trustProxy = try reader.boolean("CONCIERGE_TRUST_PROXY")
        trustedProxyHops = try reader.integer("CONCIERGE_TRUSTED_PROXY_HOPS", in: 1...10)
        httpIdleTimeout = try reader.integer("CONCIERGE_HTTP_IDLE_TIMEOUT_SECONDS", in: 1...3600)
        // A developer's Ctrl-C should not wait for a load balancer there is none of.
        drainSeconds =
            mode == .dev && reader.optional("CONCIERGE_DRAIN_SECONDS") == nil
            ? 0 : try reader.integer("CONCIERGE_DRAIN_SECONDS", in: 0...300)
        // Dev mode serves every sign-in code (/dev/outbox) and a free checkout (/sandbox) to
        // whoever asks: only on this machine, unless the operator says otherwise.
        if mode == .dev, !Self.isLoopback(host), try !reader.boolean("CONCIERGE_ALLOW_DEV_ON_NETWORK") {
            throw ConfigurationError(
                "CONCIERGE_HOST",
                "is \(host), reachable from other machines, but the server is in dev mode, which shows every "
                    + "sign-in code at /dev/outbox; set CONCIERGE_MODE=production, listen on 127.0.0.1, or set "
                    + "CONCIERGE_ALLOW_DEV_ON_NETWORK=true for a trusted test network")
        }

        signIn = SignInPolicy()
        signIn.codeLifetime = try reader.integer("CONCIERGE_OTP_CODE_TTL_SECONDS", in: 60...86_400)
        signIn.maxWrongGuesses = try reader.integer("CONCIERGE_OTP_MAX_ATTEMPTS", in: 1...100)
        signIn.resendInterval = try reader.integer("CONCIERGE_OTP_RESEND_SECONDS", in: 0...3600)
        signIn.sendsPerPhonePerHour = try reader.integer("CONCIERGE_OTP_SENDS_PER_PHONE_HOUR", in: 1...1_000_000)
        signIn.sendsPerPhonePerDay = try reader.integer("CONCIERGE_OTP_SENDS_PER_PHONE_DAY", in: 1...1_000_000)
        signIn.sendsPerIPPerHour = try reader.integer("CONCIERGE_OTP_SENDS_PER_IP_HOUR", in: 1...1_000_000_000)
        signIn.verificationsPerIPPerHour = try reader.integer(
            "CONCIERGE_OTP_VERIFIES_PER_IP_HOUR", in: 1...1_000_000_000)
        signIn.sessionLifetime = try reader.integer("CONCIERGE_SESSION_TTL_SECONDS", in: 60...31_536_000)
        signIn.sendsPerHour = try reader.integer("CONCIERGE_OTP_SENDS_PER_HOUR", in: 1...1_000_000_000)
        signIn.smsRegions = try Self.smsRegions(reader.string("CONCIERGE_SMS_ALLOWED_COUNTRIES"))

        sms = try Self.smsProvider(&reader, mode: mode)
        if let path = reader.optional("CONCIERGE_TARIFF_PATH") {
            do {
                tariff = try Tariff.load(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw ConfigurationError("CONCIERGE_TARIFF_PATH", error.description)
            }
        } else {
            tariff = .standard
        }
        googleMapsAPIKey = reader.optional("GOOGLE_MAPS_API_KEY")
        publicReadsPerMinute = try reader.integer("CONCIERGE_PUBLIC_READS_PER_MINUTE", in: 0...100_000_000)
        ordersPerNetworkPerMinute = try reader.integer("CONCIERGE_ORDERS_PER_NETWORK_PER_MINUTE", in: 0...100_000_000)
        bookingRules = BookingRules()
        bookingRules.minimumAdvanceHours = try reader.integer("CONCIERGE_MIN_ADVANCE_HOURS", in: 0...8760)
        bookingRules.quoteLifetimeSeconds = try reader.integer("CONCIERGE_QUOTE_TTL_SECONDS", in: 60...86_400)
        bookingRules.freeCancellationHours = try reader.integer("CONCIERGE_FREE_CANCELLATION_HOURS", in: 0...8760)
        bookingRules.maxUnpaidBookings = try reader.integer("CONCIERGE_MAX_UNPAID_BOOKINGS", in: 0...1_000_000)
        bookingRules.maxBookingsPerHour = try reader.integer("CONCIERGE_MAX_BOOKINGS_PER_HOUR", in: 0...1_000_000)
        workerInterval = try reader.integer("CONCIERGE_WORKER_INTERVAL_SECONDS", in: 1...3600)
        email = try Self.emailProvider(reader, mode: mode)
        adminToken = reader.optional("CONCIERGE_ADMIN_TOKEN")
        accounts = try AccountsConfiguration(environment: environment)
        if let adminToken, adminToken.count < 32 {
            throw ConfigurationError(
                "CONCIERGE_ADMIN_TOKEN", "must be at least 32 characters (it has \(adminToken.count))")
        }
        switch reader.string("CONCIERGE_PAYMENT_PROVIDER").lowercased() {
        case "sandbox":
            if mode == .production {
                throw ConfigurationError(
                    "CONCIERGE_PAYMENT_PROVIDER", "is sandbox, which takes no money; production needs mollie or stripe")
            }
            payments = .sandbox
        case "mollie":
            guard let key = reader.optional("MOLLIE_API_KEY"), key.hasPrefix("test_") || key.hasPrefix("live_") else {
                throw ConfigurationError("MOLLIE_API_KEY", "is required for mollie and starts with test_ or live_")
            }
            try Self.refuseTestKey(key.hasPrefix("test_"), "MOLLIE_API_KEY", mode: mode, reader: reader)
            payments = .mollie(apiKey: key)
        case "stripe":
            guard let key = reader.optional("STRIPE_SECRET_KEY"), key.hasPrefix("sk_") || key.hasPrefix("rk_") else {
                throw ConfigurationError("STRIPE_SECRET_KEY", "is required for stripe and starts with sk_ (or rk_)")
            }
            try Self.refuseTestKey(
                key.hasPrefix("sk_test_") || key.hasPrefix("rk_test_"), "STRIPE_SECRET_KEY", mode: mode, reader: reader)
            guard let secrets = reader.optional("STRIPE_WEBHOOK_SECRET") else {
                throw ConfigurationError(
                    "STRIPE_WEBHOOK_SECRET", "is required for stripe (whsec_… from the webhook endpoint)")
            }
            payments = .stripe(
                secretKey: key,
                webhookSecrets: secrets.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        default:
            throw ConfigurationError("CONCIERGE_PAYMENT_PROVIDER", "must be sandbox, mollie or stripe")
        }
        // Checked last, so a production start that lacks its secrets says that first.
        if mode == .production, !publicURL.lowercased().hasPrefix("https://") {
            throw ConfigurationError(
                "CONCIERGE_PUBLIC_URL",
                "must be https in production (tokens, codes and payment return links travel over it); behind a "
                    + "TLS proxy, give the proxy's https URL")
        }
    }

    private static func smsProvider(_ reader: inout EnvironmentReader, mode: Mode) throws(ConfigurationError)
        -> SMSProvider
    {
        guard let account = reader.optional("TWILIO_ACCOUNT_SID") else {
            if mode == .production {
                throw ConfigurationError(
                    "TWILIO_ACCOUNT_SID", "is required in production: the dev outbox does not deliver SMS codes")
            }
            return .devOutbox
        }
        guard account.hasPrefix("AC"), account.count == 34 else {
            throw ConfigurationError("TWILIO_ACCOUNT_SID", "must be the 34-character account SID starting with AC")
        }
        guard let token = reader.optional("TWILIO_AUTH_TOKEN") else {
            throw ConfigurationError("TWILIO_AUTH_TOKEN", "is required when TWILIO_ACCOUNT_SID is set")
        }
        if let service = reader.optional("TWILIO_VERIFY_SERVICE_SID") {
            guard service.hasPrefix("VA"), service.count == 34, service.dropFirst(2).allSatisfy(\.isHexDigit) else {
                throw ConfigurationError(
                    "TWILIO_VERIFY_SERVICE_SID", "must be the 34-character Verify service SID starting with VA")
            }
            // Verify sends only codes; booking texts would stay in the dev outbox (and its log).
            if mode == .production, reader.optional("TWILIO_FROM") == nil {
                throw ConfigurationError(
                    "TWILIO_FROM",
                    "is required in production with TWILIO_VERIFY_SERVICE_SID: Verify sends only codes, and booking "
                        + "texts need the Messages API")
            }
            return .twilioVerify(accountSID: account, authToken: token, serviceSID: service)
        }
        guard let from = reader.optional("TWILIO_FROM") else {
            throw ConfigurationError(
                "TWILIO_FROM", "is required when TWILIO_ACCOUNT_SID is set without TWILIO_VERIFY_SERVICE_SID")
        }
        do {
            return .twilioMessages(accountSID: account, authToken: token, from: try PhoneNumber(normalizing: from).e164)
        } catch {
            throw ConfigurationError("TWILIO_FROM", "must be a phone number in E.164 form, e.g. +41445551234")
        }
    }
}

extension ServerConfiguration {
    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// A port of its own wins; otherwise a token opens /metrics on the main port; neither, it is off.
    fileprivate static func metricsExposure(_ reader: EnvironmentReader, port: Int) throws(ConfigurationError)
        -> MetricsExposure
    {
        if reader.optional("CONCIERGE_METRICS_PORT") != nil {
            let metricsPort = try reader.integer("CONCIERGE_METRICS_PORT", in: 1...65535)
            guard metricsPort != port else {
                throw ConfigurationError(
                    "CONCIERGE_METRICS_PORT", "is \(metricsPort), the main port; give it a port of its own")
            }
            return .separatePort(metricsPort)
        }
        guard let token = reader.optional("CONCIERGE_METRICS_TOKEN") else { return .off }
        guard token.count >= 32 else {
            throw ConfigurationError(
                "CONCIERGE_METRICS_TOKEN", "must be at least 32 characters (it has \(token.count))")
        }
        return .bearerToken(token)
    }

    /// A test key in production confirms rides for payments that move no money.
    fileprivate static func refuseTestKey(
        _ isTestKey: Bool, _ name: String, mode: Mode, reader: EnvironmentReader
    ) throws(ConfigurationError) {
        guard isTestKey, mode == .production, try !reader.boolean("CONCIERGE_ALLOW_TEST_PAYMENTS") else { return }
        throw ConfigurationError(
            name,
            "is a test-mode key, which takes no money; production needs a live key (or set "
                + "CONCIERGE_ALLOW_TEST_PAYMENTS=true for a staging server)")
    }

    /// `CH,LI,DE` → region codes; `*` means every region.
    fileprivate static func smsRegions(_ text: String) throws(ConfigurationError) -> Set<String> {
        if text.trimmingCharacters(in: .whitespaces) == "*" { return [] }
        let known = Set(CountryCode.all.map(\.regionCode))
        var regions: Set<String> = []
        for part in text.split(separator: ",") {
            let code = part.trimmingCharacters(in: .whitespaces).uppercased()
            guard known.contains(code) else {
                throw ConfigurationError(
                    "CONCIERGE_SMS_ALLOWED_COUNTRIES",
                    "'\(code)' is not a region code (ISO 3166-1, e.g. CH); `*` allows all")
            }
            regions.insert(code)
        }
        guard !regions.isEmpty else {
            throw ConfigurationError("CONCIERGE_SMS_ALLOWED_COUNTRIES", "names no region; `*` allows all")
        }
        return regions
    }

    fileprivate static func emailProvider(_ reader: EnvironmentReader, mode: Mode) throws(ConfigurationError)
        -> EmailProviderChoice
    {
        if let url = reader.optional("SMTP_URL") {
            do {
                _ = try SMTPURL(url)
            } catch {
                throw ConfigurationError("SMTP_URL", "\(error)")
            }
            return .smtp(url: url)
        }
        if let token = reader.optional("POSTMARK_TOKEN") {
            guard let from = reader.optional("CONCIERGE_EMAIL_FROM"), from.contains("@") else {
                throw ConfigurationError("CONCIERGE_EMAIL_FROM", "is required with POSTMARK_TOKEN: the sender address")
            }
            return .postmark(token: token, from: from)
        }
        if mode == .production {
            throw ConfigurationError(
                "SMTP_URL", "or POSTMARK_TOKEN is required in production: the dev outbox sends no email")
        }
        return .devOutbox
    }
}

/// Reads variables, falling back to each one's documented default.
fileprivate struct EnvironmentReader {
    let environment: [String: String]

    init(_ environment: [String: String]) {
        self.environment = environment
    }

    func optional(_ name: String) -> String? {
        guard let value = environment[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        return value
    }

    func string(_ name: String) -> String {
        optional(name) ?? ConfigurationVariable.named(name)?.defaultValue ?? ""
    }

    func integer(_ name: String, in range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
        let text = string(name)
        guard let value = Int(text) else { throw ConfigurationError(name, "'\(text)' is not a whole number") }
        guard range.contains(value) else {
            throw ConfigurationError(name, "\(value) is outside \(range.lowerBound)…\(range.upperBound)")
        }
        return value
    }

    func boolean(_ name: String) throws(ConfigurationError) -> Bool {
        switch string(name).lowercased() {
        case "true", "1", "yes", "on": return true
        case "false", "0", "no", "off": return false
        case let other: throw ConfigurationError(name, "'\(other)' is not true or false")
        }
    }

    func choice<T: RawRepresentable & CaseIterable>(_ name: String, _ type: T.Type) throws(ConfigurationError) -> T
    where T.RawValue == String {
        let text = string(name)
        guard let value = T(rawValue: text.lowercased()) else {
            let allowed = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw ConfigurationError(name, "'\(text)' is not one of the allowed values (\(allowed))")
        }
        return value
    }
}
