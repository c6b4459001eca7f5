/// Every setting the server reads: its environment variable, the matching command-line flag,
/// its default and what it means (its config-file key and secrecy: ConfigurationVariable+Sources). The settings table of docs/operators/configure.md and `serve --help` are made
/// from this list, so documentation and code cannot drift apart.
public struct ConfigurationVariable: Sendable {
    public let name: String
    public let defaultValue: String
    public let summary: String

    /// `CONCIERGE_PUBLIC_URL` → `--public-url`, `DATABASE_URL` → `--database-url`.
    public var flag: String {
        let bare = name.hasPrefix("CONCIERGE_") ? String(name.dropFirst("CONCIERGE_".count)) : name
        return "--" + bare.lowercased().replacingOccurrences(of: "_", with: "-")
    }

    /// Every variable: the platform's, then each vertical's.
    public static var all: [ConfigurationVariable] {
        platform + retention + backups + compression + VerticalModules.all.flatMap(\.configurationVariables)
    }

    /// The settings of the shared server: listening, storage, identity, providers.
    public static let platform: [ConfigurationVariable] = [
        .init(name: "CONCIERGE_HOST", defaultValue: "127.0.0.1", summary: "Address to listen on."),
        .init(name: "CONCIERGE_PORT", defaultValue: "8080", summary: "Port to listen on (0 picks a free one)."),
        .init(name: "CONCIERGE_MODE", defaultValue: "dev", summary: "`dev` or `production`."),
        .init(
            name: "CONCIERGE_CONFIG_FILE", defaultValue: "(unset)",
            summary:
                "A JSON file of settings keyed by camel-case name (`port`, `sqlitePath`, `databaseUrl`); the environment and flags win over it."
        ),
        .init(
            name: "CONCIERGE_SQLITE_PATH", defaultValue: "./concierge.sqlite",
            summary: "SQLite file, used unless DATABASE_URL is set."),
        .init(
            name: "CONCIERGE_SQLITE_SYNCHRONOUS", defaultValue: "full",
            summary:
                "`full` (every acknowledged commit survives a power cut) or `normal` (survives a crash of the server only)."
        ),
        .init(
            name: "DATABASE_URL", defaultValue: "(unset)",
            summary: "PostgreSQL, e.g. postgres://user:pw@localhost:5432/concierge; wins over SQLite."),
        .init(
            name: "CONCIERGE_SECRET", defaultValue: "generated in dev",
            summary:
                "Key for hashing codes and tokens, at least 32 characters. Dev generates one and keeps it in the database; production requires it."
        ),
        .init(
            name: "CONCIERGE_PUBLIC_URL", defaultValue: "http://HOST:PORT",
            summary: "The URL customers and providers reach."),
        .init(
            name: "CONCIERGE_LOG_LEVEL", defaultValue: "info",
            summary: "trace, debug, info, notice, warning, error or critical."),
        .init(
            name: "CONCIERGE_LOG_FORMAT", defaultValue: "text",
            summary:
                "`text` (a line per event) or `json` (one JSON object per line: level, time, message, request and trace ids)."
        ),
        .init(
            name: "CONCIERGE_METRICS_TOKEN", defaultValue: "(unset)",
            summary:
                "Bearer token for GET /metrics (Prometheus text), 32+ characters; unset (and no metrics port), /metrics is off."
        ),
        .init(
            name: "CONCIERGE_METRICS_PORT", defaultValue: "(unset)",
            summary:
                "Serve /metrics without a token on this port of CONCIERGE_HOST instead (a port only Prometheus reaches)."
        ),
        .init(
            name: "CONCIERGE_AUTO_MIGRATE", defaultValue: "true",
            summary: "Apply pending migrations when `serve` starts."),
        .init(
            name: "CONCIERGE_TRUST_PROXY", defaultValue: "false",
            summary: "Take the client IP from X-Forwarded-For (only behind a proxy you run)."),
        .init(
            name: "CONCIERGE_TRUSTED_PROXY_HOPS", defaultValue: "1",
            summary: "With CONCIERGE_TRUST_PROXY: how many proxies you run in a row (CDN + load balancer: 2)."),
        .init(
            name: "CONCIERGE_HTTP_IDLE_TIMEOUT_SECONDS", defaultValue: "30",
            summary: "Close a connection idle this long, a half-sent request included (slow clients)."),
        .init(
            name: "CONCIERGE_DRAIN_SECONDS", defaultValue: "2",
            summary:
                "On SIGTERM, answer /ready with 503 this long before closing the port, so a load balancer takes the instance out first (dev: 0 unless set)."
        ),
        .init(
            name: "CONCIERGE_ALLOW_DEV_ON_NETWORK", defaultValue: "false",
            summary:
                "Let dev mode listen on an address other machines reach (dev shows every code at /dev/outbox)."),
        .init(
            name: "CONCIERGE_ALLOW_TEST_PAYMENTS", defaultValue: "false",
            summary: "Let production start with a Mollie or Stripe test key (a staging server)."),
        .init(name: "CONCIERGE_OTP_CODE_TTL_SECONDS", defaultValue: "600", summary: "How long an SMS code is valid."),
        .init(name: "CONCIERGE_OTP_MAX_ATTEMPTS", defaultValue: "5", summary: "Wrong guesses that burn a code."),
        .init(
            name: "CONCIERGE_OTP_RESEND_SECONDS", defaultValue: "30",
            summary: "Minimum wait between two codes to one phone."),
        .init(name: "CONCIERGE_OTP_SENDS_PER_PHONE_HOUR", defaultValue: "5", summary: "Codes per phone per hour."),
        .init(name: "CONCIERGE_OTP_SENDS_PER_PHONE_DAY", defaultValue: "10", summary: "Codes per phone per day."),
        .init(
            name: "CONCIERGE_OTP_SENDS_PER_IP_HOUR", defaultValue: "30",
            summary: "Code requests per client network (IPv4 address, IPv6 /64) per hour."),
        .init(
            name: "CONCIERGE_OTP_VERIFIES_PER_IP_HOUR", defaultValue: "120",
            summary: "Code checks per client network (IPv4 address, IPv6 /64) per hour."),
        .init(
            name: "CONCIERGE_OTP_SENDS_PER_HOUR", defaultValue: "1000",
            summary: "Codes to all phones together per hour; above it SMS sign-in pauses (SMS pumping)."),
        .init(
            name: "CONCIERGE_SMS_ALLOWED_COUNTRIES", defaultValue: "CH,LI,DE,AT,FR,IT",
            summary: "Regions (ISO 3166-1) whose phone numbers get codes, comma-separated; `*` for all."),
        .init(name: "CONCIERGE_SESSION_TTL_SECONDS", defaultValue: "604800", summary: "Session lifetime (7 days)."),
        .init(
            name: "GOOGLE_MAPS_API_KEY", defaultValue: "(unset)",
            summary: "Use Google Places (New) and Routes instead of the gazetteer and the offline estimator."),
        .init(
            name: "CONCIERGE_PAYMENT_PROVIDER", defaultValue: "sandbox",
            summary: "`sandbox` (dev only; Concierge serves the checkout itself), `mollie` or `stripe`."),
        .init(
            name: "MOLLIE_API_KEY", defaultValue: "(unset)", summary: "Mollie API key (test_… or live_…), for `mollie`."
        ),
        .init(name: "STRIPE_SECRET_KEY", defaultValue: "(unset)", summary: "Stripe secret key (sk_…), for `stripe`."),
        .init(
            name: "STRIPE_WEBHOOK_SECRET", defaultValue: "(unset)",
            summary: "Stripe webhook signing secret (whsec_…); several, comma-separated, while rotating."),
        .init(
            name: "CONCIERGE_WORKER_INTERVAL_SECONDS", defaultValue: "5",
            summary: "How often unpaid bookings are expired and notifications delivered."),
        .init(
            name: "SMTP_URL", defaultValue: "(unset)",
            summary: "Send email by SMTP, e.g. smtp://user:pw@smtp.example.com:587?from=rides@example.com (STARTTLS)."),
        .init(name: "POSTMARK_TOKEN", defaultValue: "(unset)", summary: "Send email through Postmark's HTTP API."),
        .init(
            name: "CONCIERGE_EMAIL_FROM", defaultValue: "(unset)",
            summary: "Sender address for Postmark (a confirmed sender signature)."),
        .init(
            name: "CONCIERGE_ADMIN_TOKEN", defaultValue: "(unset)",
            summary: "Bearer token of the admin API (/admin/*), 32+ characters; unset, the admin API is off."),
        .init(
            name: "TWILIO_ACCOUNT_SID", defaultValue: "(unset)",
            summary: "Twilio account; setting it switches SMS from the dev outbox to Twilio."),
        .init(name: "TWILIO_AUTH_TOKEN", defaultValue: "(unset)", summary: "Twilio auth token."),
        .init(name: "TWILIO_FROM", defaultValue: "(unset)", summary: "Sender number for the Messages API, E.164."),
        .init(
            name: "TWILIO_VERIFY_SERVICE_SID", defaultValue: "(unset)",
            summary: "Use Twilio Verify (VA…) instead of the Messages API."),
        .init(
            name: "CONCIERGE_BCRYPT_COST", defaultValue: "11",
            summary: "bcrypt cost of account passwords (4–31); 11 took about 155 ms per hash on this project's machine."
        ),
        .init(
            name: "CONCIERGE_SIGNIN_PER_ACCOUNT", defaultValue: "10",
            summary: "Password sign-ins per email or user name per 15 minutes."),
        .init(
            name: "CONCIERGE_SIGNIN_PER_NETWORK", defaultValue: "50",
            summary: "Account sign-ins per client network (IPv4 address, IPv6 /64) per 15 minutes."),
        .init(
            name: "CONCIERGE_SIGNUP_PER_NETWORK", defaultValue: "20",
            summary:
                "Sign-ups, registrations and password resets (each costs a bcrypt) per client network (IPv4 address, IPv6 /64) per hour, checked before hashing."
        ),
        .init(
            name: "CONCIERGE_SIGNUP_PER_HOUR", defaultValue: "1000",
            summary: "Sign-ups, registrations and password resets of all networks together per hour."),
        .init(
            name: "CONCIERGE_HASH_CONCURRENCY", defaultValue: "0",
            summary:
                "Password hashes and checks that run at once (0: one per core), one of them kept for sign-in checks when there are two or more; see docs/accounts.md."
        ),
        .init(
            name: "CONCIERGE_HASH_QUEUE", defaultValue: "32",
            summary:
                "Password hashes of each kind (sign-in checks, new passwords) that may wait for a free slot; past them the request gets 503 with Retry-After."
        ),
        .init(
            name: "CONCIERGE_ORDERS_PER_NETWORK_PER_MINUTE", defaultValue: "30",
            summary:
                "Order-creating requests (rides bookings, events seat checkouts, stays reservations) per client network (IPv4 address, IPv6 /64) per minute, all verticals together (0: no limit); see docs/limits.md."
        ),
        .init(
            name: "CONCIERGE_APPLE_AUDIENCES", defaultValue: "(unset)",
            summary: "Sign in with Apple: accepted client ids (bundle ids, Services IDs), comma-separated."),
        .init(
            name: "CONCIERGE_APPLE_JWKS", defaultValue: "https://appleid.apple.com/auth/keys",
            summary: "Apple's signing keys: an https URL or a JWKS file."),
        .init(
            name: "CONCIERGE_GOOGLE_AUDIENCES", defaultValue: "(unset)",
            summary: "Google sign-in: accepted OAuth client ids, comma-separated."),
        .init(
            name: "CONCIERGE_GOOGLE_JWKS", defaultValue: "https://www.googleapis.com/oauth2/v3/certs",
            summary: "Google's signing keys: an https URL or a JWKS file."),
        .init(
            name: "CONCIERGE_OIDC_ISSUERS", defaultValue: "(unset)",
            summary:
                "OpenID Connect issuers (Clerk …): `issuer|audience|jwks-url-or-file`, comma-separated; audience matches `aud`, or `azp` when there is no `aud`."
        ),
    ]

    public static func named(_ name: String) -> ConfigurationVariable? {
        all.first { $0.name == name }
    }
}
