import ConciergeTestSupport
import Testing

@testable import ConciergeStore

/// `concierge migrate --check` on each engine: a database behind this binary, ahead of it, or
/// both, and whether the migrations in between only expand.
@Suite struct SchemaCompatibilityTests {
    static let addsAColumn = Migration(
        version: 900, name: "loyalty column", statements: [.portable("ALTER TABLE accounts ADD COLUMN loyalty TEXT")])
    static let dropsATable = Migration(
        version: 901, name: "no more webhook log", statements: [.portable("DROP TABLE webhook_events")])

    /// This binary's groups with `extra` appended to the `commute` module: the next release's.
    static func nextRelease(_ extra: Migration...) -> [MigrationGroup] {
        MigrationGroups.all.map { group in
            group.module == "commute"
                ? MigrationGroup(module: group.module, migrations: group.migrations + extra) : group
        }
    }

    @Test(arguments: TestEngine.all)
    func anEmptyDatabaseNeedsMigrate(engine: TestEngine) async throws {
        let database = try await engine.openEmpty()
        let compatibility = try await Migrator(database: database).compatibility()
        #expect(compatibility.verdict == .empty)
        #expect(compatibility.exitCode == 2)
        try await database.close()
    }

    @Test(arguments: TestEngine.all)
    func aMigratedDatabaseIsCurrent(engine: TestEngine) async throws {
        let database = try await engine.openEmpty()
        try await Migrator(database: database).migrate()
        let compatibility = try await Migrator(database: database).compatibility()
        #expect(compatibility.verdict == .current)
        #expect(compatibility.exitCode == 0)
        #expect(compatibility.pending.isEmpty && compatibility.newer.isEmpty)
        try await database.close()
    }

    @Test(arguments: TestEngine.all)
    func pendingExpandOnlyMigrationsLetTheRunningReleaseKeepServing(engine: TestEngine) async throws {
        let database = try await engine.openEmpty()
        try await Migrator(database: database).migrate()
        let compatibility = try await Migrator(database: database, groups: Self.nextRelease(Self.addsAColumn))
            .compatibility()
        #expect(compatibility.verdict == .needsMigrate(expandOnly: true))
        #expect(compatibility.exitCode == 2)
        #expect(compatibility.pending.map(\.version) == [900])
        #expect(compatibility.report.contains("pending commute/900 loyalty column (expand-only)"))
        try await database.close()
    }

    @Test(arguments: TestEngine.all)
    func aPendingContractStepIsSaidSo(engine: TestEngine) async throws {
        let database = try await engine.openEmpty()
        try await Migrator(database: database).migrate()
        let compatibility = try await Migrator(
            database: database, groups: Self.nextRelease(Self.addsAColumn, Self.dropsATable)
        ).compatibility()
        #expect(compatibility.verdict == .needsMigrate(expandOnly: false))
        #expect(compatibility.exitCode == 3)
        try await database.close()
    }

    @Test(arguments: TestEngine.all)
    func theOldBinaryServesASchemaANewerReleaseOnlyAddedTo(engine: TestEngine) async throws {
        let database = try await engine.openEmpty()
        try await Migrator(database: database, groups: Self.nextRelease(Self.addsAColumn)).migrate()
        let compatibility = try await Migrator(database: database).compatibility()
        #expect(compatibility.verdict == .newerButCompatible)
        #expect(compatibility.exitCode == 0)
        #expect(compatibility.newer.map(\.name) == ["loyalty column"])
        // The readiness check agrees: an old instance stays in the load balancer.
        #expect(try await Migrator(database: database).isUpToDate())
        try await database.close()
    }

    @Test(arguments: TestEngine.all)
    func theOldBinaryRefusesASchemaANewerReleaseContracted(engine: TestEngine) async throws {
        let database = try await engine.openEmpty()
        try await Migrator(database: database, groups: Self.nextRelease(Self.addsAColumn, Self.dropsATable)).migrate()
        let compatibility = try await Migrator(database: database).compatibility()
        #expect(compatibility.verdict == .refused)
        #expect(compatibility.exitCode == 4)
        #expect(compatibility.report.last == "newer commute/901 no more webhook log (contract)")
        try await database.close()
    }

    @Test func refusalWinsOverPendingMigrations() {
        let compatibility = SchemaCompatibility(
            pending: [.init(module: "events", version: 9, name: "x", expandOnly: true)],
            newer: [.init(module: "stays", version: 9, name: "y", expandOnly: false)], isEmpty: false)
        #expect(compatibility.verdict == .refused)
    }
}
