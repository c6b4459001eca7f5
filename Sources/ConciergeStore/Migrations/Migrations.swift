/// Every schema change, in order. Append only: a released migration is never edited.
/// Times are BIGINT milliseconds since 1970 UTC (see `SQLValue`).
public enum Migrations {
    public static let all: [Migration] = [identity, outbox]

    public static var latestVersion: Int { all.map(\.version).max() ?? 0 }

    static let identity = Migration(
        version: 1, name: "identity",
        statements: [
            .portable(
                """
                CREATE TABLE settings (
                    key TEXT PRIMARY KEY,
                    value TEXT NOT NULL
                )
                """),
            .portable(
                """
                CREATE TABLE customers (
                    id TEXT PRIMARY KEY,
                    phone TEXT NOT NULL UNIQUE,
                    name TEXT,
                    email TEXT,
                    created_at BIGINT NOT NULL
                )
                """),
            .portable(
                """
                CREATE TABLE sessions (
                    token_hash TEXT PRIMARY KEY,
                    customer_id TEXT NOT NULL REFERENCES customers(id),
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    revoked_at BIGINT
                )
                """),
            .portable("CREATE INDEX sessions_by_customer ON sessions (customer_id)"),
            .portable(
                """
                CREATE TABLE code_challenges (
                    phone TEXT PRIMARY KEY,
                    id TEXT NOT NULL,
                    code_hash TEXT,
                    sent_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    wrong_guesses BIGINT NOT NULL DEFAULT 0
                )
                """),
            .portable(
                """
                CREATE TABLE rate_events (
                    key TEXT NOT NULL,
                    occurred_at BIGINT NOT NULL,
                    attempt_id TEXT NOT NULL
                )
                """),
            .portable("CREATE INDEX rate_events_by_key ON rate_events (key, occurred_at)"),
        ])

    static let outbox = Migration(
        version: 2, name: "dev outbox",
        statements: [
            .perDialect(
                sqlite: """
                    CREATE TABLE outbox_messages (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        channel TEXT NOT NULL,
                        recipient TEXT NOT NULL,
                        subject TEXT,
                        body TEXT NOT NULL,
                        created_at BIGINT NOT NULL
                    )
                    """,
                postgres: """
                    CREATE TABLE outbox_messages (
                        seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                        channel TEXT NOT NULL,
                        recipient TEXT NOT NULL,
                        subject TEXT,
                        body TEXT NOT NULL,
                        created_at BIGINT NOT NULL
                    )
                    """)
        ])
}
