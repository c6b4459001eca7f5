/// What a backup manifest records of a database, read the same way on both engines: each
/// module's schema version and each table's row count.
public enum DatabaseInventory {
    /// Every table of the application's schema, by name.
    public static func tables(_ db: any SQLExecutor) async throws -> [String] {
        let sql =
            switch db.dialect {
            case .sqlite:
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
            case .postgres:
                "SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename"
            }
        return try await db.query(sql).map { try $0.string("name") }
    }

    /// Rows per table.
    public static func rowCounts(_ db: any SQLExecutor) async throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for table in try await tables(db) {
            // The name comes from the catalogue, quoted for both engines.
            let quoted = "\"" + table.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            counts[table] = try await db.query("SELECT COUNT(*) AS count FROM \(quoted)").first?.int("count") ?? 0
        }
        return counts
    }

    /// The modules of `versions` that are newer than `groups` (or unknown to them), described
    /// for the operator: a binary cannot serve, nor safely restore, a schema it does not know.
    public static func newerThanKnown(
        _ versions: [String: Int], groups: [MigrationGroup] = MigrationGroups.all
    ) -> [String] {
        let known = Dictionary(uniqueKeysWithValues: groups.map { ($0.module, $0.latestVersion) })
        return versions.keys.sorted().compactMap { module in
            let version = versions[module] ?? 0
            guard let latest = known[module] else { return "\(module) \(version) (a module this binary does not have)" }
            return version > latest ? "\(module) \(version) (this binary knows up to \(latest))" : nil
        }
    }
}
