import ConciergeStore
import ConciergeTestSupport
import Testing

@Suite struct MigrationTests {
    @Test(arguments: TestEngine.all)
    func migratingAnEmptyDatabaseAppliesEveryMigrationOnce(engine: TestEngine) async throws {
        let database = try await engine.openEmpty()
        let migrator = Migrator(database: database)
        #expect(try await migrator.currentVersion() == nil)
        #expect(try await migrator.isUpToDate() == false)

        let applied = try await migrator.migrate()
        #expect(
            applied == MigrationGroups.all.flatMap { group in group.migrations.map { "\(group.module)/\($0.version)" } }
        )
        #expect(try await migrator.currentVersion() == Migrations.latestVersion)
        #expect(try await migrator.isUpToDate())

        #expect(try await migrator.migrate().isEmpty)
        try await database.close()
    }

    @Test(arguments: TestEngine.all)
    func aFailingStatementRollsBackTheWholeTransaction(engine: TestEngine) async throws {
        let database = try await engine.makeDatabase()
        struct Boom: Error {}
        await #expect(throws: Boom.self) {
            try await database.transaction { db in
                try await db.query("INSERT INTO settings (key, value) VALUES (?, ?)", [.text("k"), .text("v")])
                throw Boom()
            }
        }
        #expect(try await database.query("SELECT * FROM settings").isEmpty)
        try await database.close()
    }

    @Test(arguments: TestEngine.all)
    func settingsKeepTheFirstValueWritten(engine: TestEngine) async throws {
        let database = try await engine.makeDatabase()
        let settings = SettingsStore(database: database)
        let first = try await settings.value(for: "secret") { "one" }
        let second = try await settings.value(for: "secret") { "two" }
        #expect(first == "one")
        #expect(second == "one")
        try await database.close()
    }
}
