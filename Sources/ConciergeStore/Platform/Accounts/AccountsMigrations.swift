extension MigrationGroup {
    /// The shared accounts tables of the platform layer: one account with several sign-in
    /// methods, every vertical's sessions in one table, refresh-token families, and single-use
    /// email tokens. Rides' `customers` stays as the rides profile whose id is the account id.
    public static let accounts = MigrationGroup(
        module: "accounts",
        migrations: [AccountsMigrations.accounts, AccountsMigrations.sessions, AccountsMigrations.sweeping])
}

enum AccountsMigrations {
    /// Accounts and their credentials; every existing customer becomes an account with a
    /// verified phone (a phone that signed in by SMS code has proven itself).
    static let accounts = Migration(
        version: 1, name: "accounts and credentials",
        statements: [
            .portable(
                """
                CREATE TABLE accounts (
                    id TEXT PRIMARY KEY,
                    display_name TEXT,
                    created_at BIGINT NOT NULL,
                    deleted_at BIGINT
                )
                """),
            // kind: phone | email | username | oidc. `identifier` is normalised (E.164, lower-cased
            // email or username, `issuer sub` for ID tokens); `secret_hash` is a bcrypt hash on
            // email and username credentials that carry a password.
            .portable(
                """
                CREATE TABLE account_credentials (
                    kind TEXT NOT NULL,
                    identifier TEXT NOT NULL,
                    account_id TEXT NOT NULL REFERENCES accounts(id),
                    secret_hash TEXT,
                    verified_at BIGINT,
                    created_at BIGINT NOT NULL,
                    PRIMARY KEY (kind, identifier)
                )
                """),
            .portable("CREATE INDEX account_credentials_by_account ON account_credentials (account_id)"),
            .portable(
                "INSERT INTO accounts (id, display_name, created_at) SELECT id, name, created_at FROM customers"),
            .portable(
                """
                INSERT INTO account_credentials (kind, identifier, account_id, verified_at, created_at)
                SELECT 'phone', phone, id, created_at, created_at FROM customers
                """),
            // purpose: verify-email (24 h) | reset-password (1 h). Only the keyed hash is kept.
            .portable(
                """
                CREATE TABLE account_tokens (
                    token_hash TEXT PRIMARY KEY,
                    account_id TEXT NOT NULL REFERENCES accounts(id),
                    purpose TEXT NOT NULL,
                    identifier TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    used_at BIGINT
                )
                """),
            .portable("CREATE INDEX account_tokens_by_account ON account_tokens (account_id)"),
        ])

    /// One sessions table for every vertical. The rides table is rebuilt under the same name with
    /// an id, a kind and an account; its rows move over, so signed-in rides customers stay signed
    /// in with the tokens they hold. `token_hash` is set for opaque bearer tokens only; JWT
    /// sessions are found by id (the token's `sid`).
    static let sessions = Migration(
        version: 2, name: "one sessions table for every vertical, refresh tokens",
        statements: [
            .portable(
                """
                CREATE TABLE sessions_unified (
                    id TEXT PRIMARY KEY,
                    account_id TEXT NOT NULL REFERENCES accounts(id),
                    kind TEXT NOT NULL,
                    vertical TEXT NOT NULL,
                    token_hash TEXT UNIQUE,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    revoked_at BIGINT
                )
                """),
            .portable(
                """
                INSERT INTO sessions_unified (id, account_id, kind, vertical, token_hash, created_at, expires_at, revoked_at)
                SELECT 'ses_' || token_hash, customer_id, 'bearer', 'rides', token_hash, created_at, expires_at, revoked_at
                FROM sessions
                """),
            .portable("DROP TABLE sessions"),
            .portable("ALTER TABLE sessions_unified RENAME TO sessions"),
            .portable("CREATE INDEX sessions_by_account ON sessions (account_id)"),
            // One row per refresh token ever issued; a session is one family. Spending is a
            // conditional update, so two concurrent refreshes with one token cannot both win.
            .portable(
                """
                CREATE TABLE refresh_tokens (
                    token_hash TEXT PRIMARY KEY,
                    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
                    issued_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    spent_at BIGINT
                )
                """),
            .portable("CREATE INDEX refresh_tokens_by_session ON refresh_tokens (session_id)"),
        ])

    /// The sweeper finds ended sessions and lapsed tokens by time, not by reading every row.
    static let sweeping = Migration(
        version: 3, name: "sessions and account tokens by expiry, for sweeping",
        statements: [
            .portable("CREATE INDEX sessions_by_expiry ON sessions (expires_at)"),
            .portable("CREATE INDEX account_tokens_by_expiry ON account_tokens (expires_at)"),
        ])
}
