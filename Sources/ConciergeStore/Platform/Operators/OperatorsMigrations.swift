extension MigrationGroup {
    /// Named `/ops` operators and the audit log of what they did (review 2026-11-27, finding 10).
    public static let operators = MigrationGroup(
        module: "operators", migrations: [OperatorsMigrations.operators])
}

enum OperatorsMigrations {
    /// Each operator has a bare account that its `/ops` sessions name. The audit keeps the
    /// operator's name as it was, so the log reads the same after the operator is gone; `seq`
    /// orders it (several entries can share a millisecond).
    static let operators = Migration(
        version: 1, name: "operators and their audit log",
        statements: [
            .portable(
                """
                CREATE TABLE operators (
                    id TEXT PRIMARY KEY,
                    name TEXT NOT NULL UNIQUE,
                    account_id TEXT NOT NULL UNIQUE REFERENCES accounts(id),
                    password_hash TEXT NOT NULL,
                    created_at BIGINT NOT NULL
                )
                """),
            .perDialect(
                sqlite: """
                    CREATE TABLE operator_audit (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        at BIGINT NOT NULL,
                        operator_account_id TEXT NOT NULL,
                        operator_name TEXT NOT NULL,
                        action TEXT NOT NULL,
                        subject TEXT NOT NULL,
                        detail TEXT NOT NULL
                    )
                    """,
                postgres: """
                    CREATE TABLE operator_audit (
                        seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                        at BIGINT NOT NULL,
                        operator_account_id TEXT NOT NULL,
                        operator_name TEXT NOT NULL,
                        action TEXT NOT NULL,
                        subject TEXT NOT NULL,
                        detail TEXT NOT NULL
                    )
                    """),
        ])
}
