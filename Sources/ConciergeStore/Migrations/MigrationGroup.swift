/// One module's schema changes, with a version sequence of its own: two verticals developed side
/// by side can both add their "version 3" without colliding. The migrator merges the groups.
public struct MigrationGroup: Sendable {
    /// The module's name, e.g. `platform`, `rides`, `events`. `core` is the pre-module history.
    public let module: String
    public let migrations: [Migration]

    public init(module: String, migrations: [Migration]) {
        self.module = module
        self.migrations = migrations.sorted { $0.version < $1.version }
    }

    public var latestVersion: Int { migrations.last?.version ?? 0 }
}

extension MigrationGroup {
    /// The schema as it stood before modules (rides and the first shared tables), versions 1–8.
    /// Recorded in `schema_migrations`, as it always was, so existing databases carry on.
    public static let core = MigrationGroup(module: "core", migrations: Migrations.all)
}
