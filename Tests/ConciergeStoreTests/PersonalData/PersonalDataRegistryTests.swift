import ConciergeStore
import ConciergeTestSupport
import Testing

/// Issue 26 item 6: every column of the real, migrated schema is classified, so a migration
/// that adds a column of personal data cannot slip past erasure, joining and export.
@Suite struct PersonalDataRegistryTests {
    @Test(arguments: TestEngine.all)
    func everyColumnOfTheMigratedSchemaIsClassified(engine: TestEngine) async throws {
        let database = try await engine.makeDatabase()
        let columns = try await MigratedSchema.columns(of: database)
        #expect(columns.count > 100)
        for (table, column) in columns {
            #expect(
                PersonalDataRegistry.kind(table: table, column: column) != nil,
                "\(table).\(column) is not classified: add it to its module's PersonalColumns list")
        }
        // And the registry names no column the schema lacks (a renamed or dropped one).
        let present = Set(columns.map { "\($0.table).\($0.column)" })
        for entry in PersonalDataRegistry.all {
            #expect(
                present.contains("\(entry.table).\(entry.column)"),
                "\(entry.table).\(entry.column) is not in the schema")
        }
        try await database.close()
    }

    @Test func aColumnIsClassifiedOnce() {
        let names = PersonalDataRegistry.all.map { "\($0.table).\($0.column)" }
        #expect(names.count == Set(names).count)
    }
}
