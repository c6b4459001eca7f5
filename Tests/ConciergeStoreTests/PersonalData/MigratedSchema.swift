import ConciergeStore

/// The columns of a migrated database as the engine reports them (not as the migrations say).
enum MigratedSchema {
    static func columns(of db: any SQLDatabase) async throws -> [(table: String, column: String)] {
        let sql =
            switch db.dialect {
            case .sqlite:
                """
                SELECT m.name AS table_name, p.name AS column_name
                FROM sqlite_master m, pragma_table_info(m.name) p WHERE m.type = 'table'
                """
            case .postgres:
                """
                SELECT table_name::text AS table_name, column_name::text AS column_name
                FROM information_schema.columns WHERE table_schema = current_schema()
                """
            }
        return try await db.query(sql).map { (try $0.string("table_name"), try $0.string("column_name")) }
            .filter { !PersonalDataRegistry.schemaTables.contains($0.0) }
    }
}
