/// Every column of the schema with its class, module by module: each module that migrates
/// tables adds its list here beside its `MigrationGroup` (the same order as `MigrationGroups`).
public enum PersonalDataRegistry {
    public static let all: [PersonalDataColumn] =
        PersonalDataColumn.platform + PersonalDataColumn.operators + PersonalDataColumn.rides + PersonalDataColumn.stays
        + PersonalDataColumn.events + PersonalDataColumn.commute

    /// Bookkeeping of the engines and the migrator, which hold nothing about anyone.
    public static let schemaTables: Set<String> = [
        "schema_migrations", "module_migrations", "migration_contracts", "sqlite_sequence",
    ]

    static let byTable: [String: [String: PersonalDataKind]] = Dictionary(
        grouping: all, by: \.table
    ).mapValues { Dictionary(uniqueKeysWithValues: $0.map { ($0.column, $0.kind) }) }

    /// The class of a column, nil when it is not registered.
    public static func kind(table: String, column: String) -> PersonalDataKind? {
        byTable[table]?[column]
    }
}
