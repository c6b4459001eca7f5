/// Whether a binary can serve the schema it finds: `concierge migrate --check`. The database
/// may be behind the binary (migrations pending), ahead of it (a newer release migrated it), or
/// both in different modules. Expand-only migrations (`MigrationLint`) are what let two releases
/// share one database during a rolling upgrade.
public struct SchemaCompatibility: Sendable, Equatable {
    /// A migration this binary knows that the database has not applied.
    public struct Pending: Sendable, Equatable {
        public let module: String
        public let version: Int
        public let name: String
        public let expandOnly: Bool
    }

    /// A migration the database has applied that this binary does not know (a newer release's).
    public struct Newer: Sendable, Equatable {
        public let module: String
        public let version: Int
        public let name: String
        /// Recorded in `migration_contracts` by the binary that applied it.
        public let expandOnly: Bool
    }

    public enum Verdict: Sendable, Equatable {
        /// Every migration this binary knows is applied, and nothing else.
        case current
        /// A newer release added to the schema; this binary ignores what it added.
        case newerButCompatible
        /// No schema at all yet: `concierge migrate` creates it.
        case empty
        /// `concierge migrate` is needed; when `expandOnly`, instances of the running release keep
        /// serving while it applies.
        case needsMigrate(expandOnly: Bool)
        /// A newer release removed or changed what this binary reads: it must not serve.
        case refused
    }

    public let pending: [Pending]
    public let newer: [Newer]
    public let isEmpty: Bool

    public var verdict: Verdict {
        if newer.contains(where: { !$0.expandOnly }) { return .refused }
        if isEmpty { return .empty }
        if !pending.isEmpty { return .needsMigrate(expandOnly: pending.allSatisfy(\.expandOnly)) }
        return newer.isEmpty ? .current : .newerButCompatible
    }

    /// The process's exit status for the verdict (docs/operators/upgrades.md lists them).
    public var exitCode: Int32 {
        switch verdict {
        case .current, .newerButCompatible: 0
        case .empty, .needsMigrate(expandOnly: true): 2
        case .needsMigrate(expandOnly: false): 3
        case .refused: 4
        }
    }

    /// What `migrate --check` prints: the verdict, then one line per migration it rests on.
    public var report: [String] {
        var lines: [String]
        switch verdict {
        case .current: lines = ["ok: the schema is the one this binary knows."]
        case .newerButCompatible:
            lines = ["ok: a newer release migrated the schema, only adding to it; this binary can serve it."]
        case .empty: lines = ["needs migrate: the database has no schema yet; run `concierge migrate`."]
        case .needsMigrate(true):
            lines = [
                "needs migrate: \(pending.count) pending, all expand-only; instances of the running release "
                    + "keep serving while `concierge migrate` applies them."
            ]
        case .needsMigrate(false):
            lines = [
                "needs migrate: \(pending.count) pending, some not expand-only; stop instances of the "
                    + "release before the previous one first (docs/operators/upgrades.md)."
            ]
        case .refused:
            lines = ["refused: a newer release changed or removed what this binary reads; run the newer binary."]
        }
        if !isEmpty {
            lines += pending.map { "pending \($0.module)/\($0.version) \($0.name) (\(Self.kind($0.expandOnly)))" }
        }
        lines += newer.map { "newer \($0.module)/\($0.version) \($0.name) (\(Self.kind($0.expandOnly)))" }
        return lines
    }

    private static func kind(_ expandOnly: Bool) -> String { expandOnly ? "expand-only" : "contract" }
}

extension Migrator {
    /// Compares what the database has applied with what this migrator's groups know.
    public func compatibility() async throws -> SchemaCompatibility {
        guard try await tableExists("schema_migrations") else {
            return SchemaCompatibility(
                pending: groups.flatMap { group in
                    group.migrations.map {
                        .init(
                            module: group.module, version: $0.version, name: $0.name,
                            expandOnly: MigrationLint.isExpandOnly($0, module: group.module))
                    }
                }, newer: [], isEmpty: true)
        }
        var applied: [(module: String, version: Int, name: String)] = try await database.query(
            "SELECT version, name FROM schema_migrations ORDER BY version"
        ).map { (MigrationGroup.core.module, try $0.int("version"), try $0.string("name")) }
        if try await tableExists("module_migrations") {
            applied += try await database.query(
                "SELECT module, version, name FROM module_migrations ORDER BY module, version"
            ).map { (try $0.string("module"), try $0.int("version"), try $0.string("name")) }
        }
        var contracts: Set<String> = []
        if try await tableExists("migration_contracts") {
            for row in try await database.query("SELECT module, version FROM migration_contracts") {
                contracts.insert("\(try row.string("module"))/\(try row.int("version"))")
            }
        }
        let appliedKeys = Set(applied.map { "\($0.module)/\($0.version)" })
        let known = Set(groups.flatMap { group in group.migrations.map { "\(group.module)/\($0.version)" } })
        let pending = groups.flatMap { group in
            group.migrations.filter { !appliedKeys.contains("\(group.module)/\($0.version)") }.map {
                SchemaCompatibility.Pending(
                    module: group.module, version: $0.version, name: $0.name,
                    expandOnly: MigrationLint.isExpandOnly($0, module: group.module))
            }
        }
        let newer = applied.filter { !known.contains("\($0.module)/\($0.version)") }.map {
            SchemaCompatibility.Newer(
                module: $0.module, version: $0.version, name: $0.name,
                expandOnly: !contracts.contains("\($0.module)/\($0.version)"))
        }
        return SchemaCompatibility(pending: pending, newer: newer, isEmpty: false)
    }

    private func tableExists(_ table: String) async throws -> Bool {
        let sql =
            switch database.dialect {
            case .sqlite: "SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?"
            case .postgres: "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename = ?"
            }
        return !(try await database.query(sql, [.text(table)]).isEmpty)
    }
}
