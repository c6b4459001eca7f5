import ConciergeCore
import ConciergeStore
import ConciergeTestSupport
import Foundation
import Testing

@testable import ConciergeServer

/// `concierge backup` and `restore` on SQLite (issue 28 item 2): a copy of a database being
/// written to, and the refusals of a restore.
@Suite struct SQLiteBackupTests {
    /// Writes rows one commit at a time until stopped; the keys whose commit returned, in order.
    final class Writer: @unchecked Sendable {
        private let lock = NSLock()
        private var committed: [String] = []
        private var stopped = false

        var keys: [String] { lock.withLock { committed } }
        func stop() { lock.withLock { stopped = true } }

        func run(_ database: any SQLDatabase) async throws {
            var index = 0
            while !lock.withLock({ stopped }) {
                index += 1
                let key = "row-\(index)"
                _ = try await database.transaction { db in
                    try await db.query(
                        "INSERT INTO settings (key, value) VALUES (?, ?)",
                        [.text(key), .text(String(repeating: "x", count: 200))])
                }
                lock.withLock { committed.append(key) }
            }
        }
    }

    @Test func backupWhileWritesGoOnHoldsEveryRowCommittedBeforeItAndPassesIntegrityCheck() async throws {
        let place = try BackupPlace()
        defer { place.remove() }
        let (storage, database) = try await place.database(.sqlite)
        let writer = Writer()
        let writing = Task { try await writer.run(database) }
        while writer.keys.count < 2000 { try await Task.sleep(for: .milliseconds(5)) }

        let before = Set(writer.keys)
        let file = place.file("copy.sqlite")
        let manifest = try await DatabaseBackup(storage: storage).backup(to: file)
        let writtenDuringBackup = writer.keys.count - before.count
        writer.stop()
        try await writing.value
        try await database.close()

        let copy = try SQLiteFile(path: file.path, readOnly: true)
        defer { copy.close() }
        #expect(copy.integrityCheck() == ["ok"])
        let kept = try await settingKeys(copy)
        #expect(before.isSubset(of: kept), "rows committed before the backup began are missing")
        // The writes went on meanwhile (the backup held no lock that stopped them).
        #expect(writtenDuringBackup > 0)
        #expect(manifest.engine == "sqlite")
        #expect(manifest.integrityCheck == "ok")
        #expect(manifest.sha256 == (try FileDigest.sha256Hex(of: file)))
        #expect(manifest.rowCounts["settings"] == kept.count)
        #expect(
            manifest.schemaVersions
                == Dictionary(uniqueKeysWithValues: MigrationGroups.all.map { ($0.module, $0.latestVersion) }))
        #expect(try BackupManifest.read(besides: file) == manifest)
    }

    @Test func restoreRefusesACopyWithAFlippedByte() async throws {
        let place = try BackupPlace()
        defer { place.remove() }
        let (storage, database) = try await place.database(.sqlite)
        let file = place.file("copy.sqlite")
        _ = try await DatabaseBackup(storage: storage).backup(to: file)
        try await database.query("INSERT INTO settings (key, value) VALUES ('after', 'backup')")
        try await database.close()
        try flipByte(in: file, at: 5000)

        let refusal = await #expect(throws: BackupRefusal.self) {
            try await DatabaseBackup(storage: storage).restore(from: file)
        }
        #expect(refusal?.description.contains("damaged: its SHA-256") == true)
        #expect(try await liveKeys(storage).contains("after"), "the live database was left as it was")
    }

    @Test func restoreRefusesACopyThatFailsIntegrityCheckEvenWithAMatchingChecksum() async throws {
        let place = try BackupPlace()
        defer { place.remove() }
        let (storage, database) = try await place.database(.sqlite)
        try await database.close()
        let file = place.file("copy.sqlite")
        _ = try await DatabaseBackup(storage: storage).backup(to: file)
        // Every b-tree page's type byte after the first two pages, garbled.
        let size = try SQLiteDatabaseBackup.size(of: file)
        for page in stride(from: 2048, to: size, by: 1024) { try flipByte(in: file, at: page) }
        try rewriteManifestChecksum(of: file)

        let refusal = await #expect(throws: BackupRefusal.self) {
            try await DatabaseBackup(storage: storage).restore(from: file)
        }
        #expect(refusal?.description.contains("damaged") == true)
    }

    @Test func restoreRefusesACopyWithANewerSchema() async throws {
        let place = try BackupPlace()
        defer { place.remove() }
        let (storage, database) = try await place.database(.sqlite)
        try await database.close()
        let file = place.file("copy.sqlite")
        _ = try await DatabaseBackup(storage: storage).backup(to: file)
        // As a later release's backup: a migration this binary does not have.
        let copy = try SQLiteFile(path: file.path, readOnly: false)
        try await copy.query(
            "INSERT INTO module_migrations (module, version, name, applied_at) VALUES ('events', 999, 'future', 0)")
        copy.close()
        try rewriteManifestChecksum(of: file)

        let refusal = await #expect(throws: BackupRefusal.self) {
            try await DatabaseBackup(storage: storage).restore(from: file)
        }
        #expect(refusal?.description.contains("newer schema than this binary knows: events 999") == true)
    }

    @Test func restoreRefusesADatabaseAServerHasOpenAndRestoresOnceItIsClosed() async throws {
        let place = try BackupPlace()
        defer { place.remove() }
        let (storage, database) = try await place.database(.sqlite)
        try await database.query("INSERT INTO settings (key, value) VALUES ('before', 'backup')")
        let file = place.file("copy.sqlite")
        _ = try await DatabaseBackup(storage: storage).backup(to: file)
        try await database.query("INSERT INTO settings (key, value) VALUES ('after', 'backup')")

        let refusal = await #expect(throws: BackupRefusal.self) {
            try await DatabaseBackup(storage: storage).restore(from: file)
        }
        #expect(refusal?.description.contains("is in use") == true)

        try await database.close()
        _ = try await DatabaseBackup(storage: storage).restore(from: file)
        let keys = try await liveKeys(storage)
        #expect(keys.contains("before"))
        #expect(!keys.contains("after"))
        let kept = try FileManager.default.contentsOfDirectory(atPath: place.folder.path)
        #expect(kept.contains { $0.hasPrefix("live.sqlite.before-restore-") }, "the replaced database is kept")
    }

    private func flipByte(in file: URL, at offset: Int) throws {
        let handle = try FileHandle(forUpdating: file)
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64(offset))
        let byte = try handle.read(upToCount: 1)?.first ?? 0
        try handle.seek(toOffset: UInt64(offset))
        try handle.write(contentsOf: Data([byte ^ 0xFF]))
    }

    private func liveKeys(_ storage: ServerConfiguration.Storage) async throws -> Set<String> {
        guard case .sqlite(let path, _) = storage else { return [] }
        let database = try await SQLiteEngine.open(path: path, logger: TestApp.quiet)
        let keys = try await settingKeys(database)
        try await database.close()
        return keys
    }
}
