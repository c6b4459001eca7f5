public import Foundation

/// Applies pending migrations of every module. Holds a named lock while it works, so server
/// instances that start together do not both migrate. Groups apply in the order given (`core`
/// first: later modules build on its tables); within a group, by version.
public struct Migrator: Sendable {
    let database: any SQLDatabase
    let groups: [MigrationGroup]

    public init(database: any SQLDatabase, groups: [MigrationGroup] = MigrationGroups.all) {
        self.database = database
        self.groups = groups
    }

    /// Applies every migration not applied yet, all in one transaction; returns them as
    /// `module/version`, in the order applied.
    @discardableResult
    public func migrate(now: Date = Date()) async throws -> [String] {
        let groups = self.groups
        return try await database.transaction(lockKeys: ["schema-migrations"]) { db in
            try await Self.createBookkeeping(db)
            var newlyApplied: [String] = []
            for group in groups {
                let applied = try await Self.appliedVersions(of: group.module, db: db)
                for migration in group.migrations where !applied.contains(migration.version) {
                    for statement in migration.statements {
                        try await db.query(statement.sql(for: db.dialect))
                    }
                    try await Self.record(migration, module: group.module, now: now, db: db)
                    if !MigrationLint.isExpandOnly(migration, module: group.module) {
                        try await db.query(
                            "INSERT INTO migration_contracts (module, version) VALUES (?, ?)",
                            [.text(group.module), SQLValue(migration.version)])
                    }
                    newlyApplied.append("\(group.module)/\(migration.version)")
                }
            }
            return newlyApplied
        }
    }

    /// `core` keeps its original table; every other module records in `module_migrations`.
    /// `migration_contracts` names the applied migrations that were not expand-only, so an older
    /// binary, which does not know them, can tell whether it still serves the schema.
    private static func createBookkeeping(_ db: any SQLExecutor) async throws {
        try await db.query(
            """
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version BIGINT PRIMARY KEY,
                name TEXT NOT NULL,
                applied_at BIGINT NOT NULL
            )
            """)
        try await db.query(
            """
            CREATE TABLE IF NOT EXISTS module_migrations (
                module TEXT NOT NULL,
                version BIGINT NOT NULL,
                name TEXT NOT NULL,
                applied_at BIGINT NOT NULL,
                PRIMARY KEY (module, version)
            )
            """)
        try await db.query(
            """
            CREATE TABLE IF NOT EXISTS migration_contracts (
                module TEXT NOT NULL,
                version BIGINT NOT NULL,
                PRIMARY KEY (module, version)
            )
            """)
    }

    private static func appliedVersions(of module: String, db: any SQLExecutor) async throws -> Set<Int> {
        let rows =
            module == MigrationGroup.core.module
            ? try await db.query("SELECT version FROM schema_migrations")
            : try await db.query("SELECT version FROM module_migrations WHERE module = ?", [.text(module)])
        return Set(try rows.map { try $0.int("version") })
    }

    private static func record(_ migration: Migration, module: String, now: Date, db: any SQLExecutor) async throws {
        if module == MigrationGroup.core.module {
            try await db.query(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                [SQLValue(migration.version), .text(migration.name), SQLValue(now)])
        } else {
            try await db.query(
                "INSERT INTO module_migrations (module, version, name, applied_at) VALUES (?, ?, ?, ?)",
                [.text(module), SQLValue(migration.version), .text(migration.name), SQLValue(now)])
        }
    }

    /// The highest applied version of each module; empty before the first migration.
    public func appliedVersions() async throws -> [String: Int] {
        try await Self.appliedVersions(in: database)
    }

    /// The same, in any database or transaction (a backup reads it inside its snapshot).
    public static func appliedVersions(in database: any SQLExecutor) async throws -> [String: Int] {
        guard try await bookkeepingExists(database) else { return [:] }
        var versions: [String: Int] = [:]
        for row in try await database.query("SELECT MAX(version) AS version FROM schema_migrations") {
            if case .null = row.values["version"] ?? .null { continue }
            versions[MigrationGroup.core.module] = try row.int("version")
        }
        for row in try await database.query(
            "SELECT module, MAX(version) AS version FROM module_migrations GROUP BY module")
        {
            versions[try row.string("module")] = try row.int("version")
        }
        return versions
    }

    /// The highest applied version of the `core` history, or nil before the first migration.
    public func currentVersion() async throws -> Int? {
        try await appliedVersions()[MigrationGroup.core.module]
    }

    /// True when every known migration of every module has been applied.
    public func isUpToDate() async throws -> Bool {
        let applied = try await appliedVersions()
        return groups.allSatisfy { applied[$0.module, default: 0] >= $0.latestVersion }
    }

    private static func bookkeepingExists(_ database: any SQLExecutor) async throws -> Bool {
        let table = "module_migrations"
        switch database.dialect {
        case .sqlite:
            return
                !(try await database.query(
                    "SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(table)]
                ).isEmpty)
        case .postgres:
            return
                !(try await database.query(
                    "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename = ?",
                    [.text(table)]
                ).isEmpty)
        }
    }
}
