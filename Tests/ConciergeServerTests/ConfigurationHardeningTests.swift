import ConciergeServer
import ConciergeStore
import Foundation
import Testing

/// Settings that would start an unsafe server are refused with a message naming the variable
/// (security review findings 8, 10, 23 and 29).
@Suite struct ConfigurationHardeningTests {
    /// A production environment that starts, to vary one thing at a time.
    static let production: [String: String] = [
        "CONCIERGE_MODE": "production", "CONCIERGE_SECRET": String(repeating: "s", count: 40),
        "CONCIERGE_PUBLIC_URL": "https://rides.example.com",
        "TWILIO_ACCOUNT_SID": "AC" + String(repeating: "a", count: 32), "TWILIO_AUTH_TOKEN": "token",
        "TWILIO_FROM": "+41445551234", "CONCIERGE_PAYMENT_PROVIDER": "mollie", "MOLLIE_API_KEY": "live_abc",
        "POSTMARK_TOKEN": "server-token", "CONCIERGE_EMAIL_FROM": "rides@example.com",
    ]

    static func refusal(_ environment: [String: String]) -> ConfigurationError? {
        do {
            _ = try ServerConfiguration(environment: environment)
            return nil
        } catch {
            return error
        }
    }

    @Test func theProductionBaselineStarts() throws {
        _ = try ServerConfiguration(environment: Self.production)
    }

    /// Finding 8: dev mode shows every code at /dev/outbox, so it stays on loopback unless told.
    @Test func devModeIsRefusedOnANetworkAddressUnlessAllowed() throws {
        let refused = Self.refusal(["CONCIERGE_HOST": "0.0.0.0"])
        #expect(refused?.variable == "CONCIERGE_HOST")
        #expect(refused?.description.contains("CONCIERGE_ALLOW_DEV_ON_NETWORK") == true)
        _ = try ServerConfiguration(environment: [
            "CONCIERGE_HOST": "0.0.0.0", "CONCIERGE_ALLOW_DEV_ON_NETWORK": "true",
        ])
        for loopback in ["127.0.0.1", "localhost", "::1"] {
            _ = try ServerConfiguration(environment: ["CONCIERGE_HOST": loopback])
        }
    }

    /// Finding 10: test keys move no money.
    @Test func productionRefusesTestPaymentKeysUnlessAllowed() throws {
        var mollie = Self.production
        mollie["MOLLIE_API_KEY"] = "test_abc"
        #expect(Self.refusal(mollie)?.variable == "MOLLIE_API_KEY")
        var stripe = Self.production
        stripe["CONCIERGE_PAYMENT_PROVIDER"] = "stripe"
        stripe["STRIPE_SECRET_KEY"] = "sk_test_abc"
        stripe["STRIPE_WEBHOOK_SECRET"] = "whsec_x"
        #expect(Self.refusal(stripe)?.variable == "STRIPE_SECRET_KEY")
        stripe["STRIPE_SECRET_KEY"] = "sk_live_abc"
        _ = try ServerConfiguration(environment: stripe)
        mollie["CONCIERGE_ALLOW_TEST_PAYMENTS"] = "true"
        _ = try ServerConfiguration(environment: mollie)
    }

    /// Finding 23: tokens and codes travel over the public URL.
    @Test func productionNeedsAnHTTPSPublicURL() {
        var plain = Self.production
        plain["CONCIERGE_PUBLIC_URL"] = "http://rides.example.com"
        #expect(Self.refusal(plain)?.variable == "CONCIERGE_PUBLIC_URL")
        plain["CONCIERGE_PUBLIC_URL"] = nil
        #expect(Self.refusal(plain)?.variable == "CONCIERGE_PUBLIC_URL")
    }

    /// Finding 23: `prefer` and `allow` fall back to plain text without saying so.
    @Test func sslModesMeanWhatLibpqMeansAndSilentFallbacksAreRefused() throws {
        for (mode, expected) in [
            ("disable", PostgresURL.TLSMode.disable), ("require", .require), ("verify-ca", .verifyCA),
            ("verify-full", .verifyFull),
        ] {
            #expect(try PostgresURL("postgres://u:p@db.example/x?sslmode=\(mode)").tls == expected)
        }
        #expect(try PostgresURL("postgres://u:p@db.example/x").tls == .disable)
        for mode in ["prefer", "allow"] {
            #expect(throws: PostgresURLError.self) { try PostgresURL("postgres://u:p@db.example/x?sslmode=\(mode)") }
        }
    }

    /// Finding 29: with Verify alone, booking texts would stay in the dev outbox (and its log).
    @Test func productionWithTwilioVerifyNeedsTheMessagesSenderToo() {
        var verify = Self.production
        verify["TWILIO_VERIFY_SERVICE_SID"] = "VA" + String(repeating: "f", count: 32)
        verify["TWILIO_FROM"] = nil
        #expect(Self.refusal(verify)?.variable == "TWILIO_FROM")
    }

    /// Finding 1: the served countries are region codes; a typo is refused, `*` allows all.
    @Test func theSMSCountryListIsCheckedAndStar() throws {
        #expect(
            Self.refusal(["CONCIERGE_SMS_ALLOWED_COUNTRIES": "CH,XX"])?.variable == "CONCIERGE_SMS_ALLOWED_COUNTRIES")
        #expect(try ServerConfiguration(environment: [:]).signIn.smsRegions == ["CH", "LI", "DE", "AT", "FR", "IT"])
        #expect(
            try ServerConfiguration(environment: ["CONCIERGE_SMS_ALLOWED_COUNTRIES": "*"]).signIn.smsRegions.isEmpty)
        #expect(
            try ServerConfiguration(environment: ["CONCIERGE_SMS_ALLOWED_COUNTRIES": "ch, li"]).signIn.smsRegions == [
                "CH", "LI",
            ])
    }

    /// Finding 25: flags are visible in the process list; secrets come from the environment or
    /// a file in production.
    @available(macOS 15, *)
    @Test func productionRefusesSecretsAsFlagsAndReadsThemFromFiles() async throws {
        let secret = String(repeating: "s", count: 40)
        let flagged = await #expect(throws: ConfigurationError.self) {
            try await EffectiveSettings.load(
                arguments: ["--secret", secret], environment: ["CONCIERGE_MODE": "production"])
        }
        #expect(flagged?.description.contains("_FILE") == true)
        _ = try await EffectiveSettings.load(arguments: ["--secret", secret], environment: [:])

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("secret-\(UUID().uuidString)")
        try Data((String(repeating: "f", count: 40) + "\n").utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var environment = Self.production
        environment["CONCIERGE_SECRET"] = nil
        environment["CONCIERGE_SECRET_FILE"] = file.path
        let settings = try await EffectiveSettings.load(arguments: ["--port", "9000"], environment: environment)
        #expect(settings.environment["CONCIERGE_SECRET"] == String(repeating: "f", count: 40))
        #expect(try settings.configuration().port == 9000)
        await #expect(throws: ConfigurationError.self) {
            try await EffectiveSettings.load(
                arguments: [], environment: ["CONCIERGE_SECRET_FILE": "/nonexistent/secret"])
        }
    }
}
