public import Foundation

/// Applies pending migrations. Holds a named lock while it works, so server instances that start
/// together do not both migrate.
public struct Migrator: Sendable {
    private let database: any SQLDatabase
    private let migrations: [Migration]

    public init(database: any SQLDatabase, migrations: [Migration] = Migrations.all) {
        self.database = database
        self.migrations = migrations.sorted { $0.version < $1.version }
    }

    /// Applies every migration not applied yet, all in one transaction; returns their versions.
    @discardableResult
    public func migrate(now: Date = Date()) async throws -> [Int] {
        let migrations = self.migrations
        return try await database.transaction(lockKeys: ["schema-migrations"]) { db in
            try await db.query(
                """
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version BIGINT PRIMARY KEY,
                    name TEXT NOT NULL,
                    applied_at BIGINT NOT NULL
                )
                """)
            let applied = Set(try await db.query("SELECT version FROM schema_migrations").map { try $0.int("version") })
            var newlyApplied: [Int] = []
            for migration in migrations where !applied.contains(migration.version) {
                for statement in migration.statements {
                    try await db.query(statement.sql(for: db.dialect))
                }
                try await db.query(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                    [SQLValue(migration.version), .text(migration.name), SQLValue(now)])
                newlyApplied.append(migration.version)
            }
            return newlyApplied
        }
    }

    /// The highest applied version, or nil before the first migration.
    public func currentVersion() async throws -> Int? {
        let exists: Bool
        switch database.dialect {
        case .sqlite:
            exists =
                !(try await database.query(
                    "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
                ).isEmpty)
        case .postgres:
            exists =
                !(try await database.query(
                    "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename = 'schema_migrations'"
                ).isEmpty)
        }
        guard exists else { return nil }
        let rows = try await database.query("SELECT MAX(version) AS version FROM schema_migrations")
        return try rows.first.flatMap { row in
            if case .null = row.values["version"] ?? .null { return nil }
            return try row.int("version")
        }
    }

    /// True when every known migration has been applied.
    public func isUpToDate() async throws -> Bool {
        try await currentVersion() == migrations.last?.version
    }
}
