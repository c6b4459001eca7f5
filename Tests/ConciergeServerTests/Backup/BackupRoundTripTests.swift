import ConciergeCore
import ConciergeStore
import ConciergeTestSupport
import Foundation
import Testing

@testable import ConciergeServer

/// A backup restored into a fresh place holds what the database held, on both engines
/// (PostgreSQL: pg_dump --format=custom and pg_restore, from the server the tests start).
@Suite struct BackupRoundTripTests {
    @Test(arguments: TestEngine.all)
    func backupRestoredIntoAFreshDatabaseHoldsItsRowsAndSchema(engine: TestEngine) async throws {
        let place = try BackupPlace()
        defer { place.remove() }
        let (storage, database) = try await place.database(engine)
        for index in 0..<50 {
            try await database.query(
                "INSERT INTO settings (key, value) VALUES (?, ?)", [.text("key-\(index)"), .text("value \(index)")])
        }
        let file = place.file(engine == .sqlite ? "copy.sqlite" : "copy.pgdump")
        let manifest = try await DatabaseBackup(storage: storage).backup(to: file)
        try await database.query("INSERT INTO settings (key, value) VALUES ('after', 'backup')")
        #expect(manifest.engine == storage.engineName)
        #expect(manifest.rowCounts["settings"] == 50)
        #expect(manifest.schemaVersions["core"] == MigrationGroup.core.latestVersion)

        // The fresh place: an empty database (PostgreSQL), or the SQLite file moved out of the way.
        let target: ServerConfiguration.Storage
        switch engine {
        case .sqlite:
            try await database.close()
            target = .sqlite(path: place.file("restored.sqlite").path)
        case .postgres:
            try await database.close()
            target = .postgres(try PostgresURL(try await PostgresTestServer.shared.makeDatabaseURL()))
        }
        _ = try await DatabaseBackup(storage: target).restore(from: file)
        let restored = try await open(target)
        let keys = try await settingKeys(restored)
        let versions = try await Migrator(database: restored).appliedVersions()
        try await restored.close()
        #expect(keys == Set((0..<50).map { "key-\($0)" }))
        #expect(versions == manifest.schemaVersions)
    }

    @Test(.enabled(if: TestEngine.all.contains(.postgres), "CONCIERGE_SKIP_POSTGRES=1"))
    func postgresRestoreRefusesANonEmptyDatabaseUnlessForced() async throws {
        let place = try BackupPlace()
        defer { place.remove() }
        let (storage, database) = try await place.database(.postgres)
        try await database.query("INSERT INTO settings (key, value) VALUES ('kept', 'in backup')")
        let file = place.file("copy.pgdump")
        _ = try await DatabaseBackup(storage: storage).backup(to: file)
        try await database.query("INSERT INTO settings (key, value) VALUES ('after', 'backup')")
        try await database.close()

        let refusal = await #expect(throws: BackupRefusal.self) {
            try await DatabaseBackup(storage: storage).restore(from: file)
        }
        #expect(refusal?.description.contains("is not empty") == true)

        _ = try await DatabaseBackup(storage: storage).restore(from: file, force: true)
        let restored = try await open(storage)
        let keys = try await settingKeys(restored)
        try await restored.close()
        #expect(keys.contains("kept"))
        #expect(!keys.contains("after"))
    }

    private func open(_ storage: ServerConfiguration.Storage) async throws -> any SQLDatabase {
        switch storage {
        case .sqlite(let path, _): try await SQLiteEngine.open(path: path, logger: TestApp.quiet)
        case .postgres(let url): PostgresEngine(url: url, logger: TestApp.quiet)
        }
    }
}
