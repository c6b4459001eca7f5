import ConciergeCore
import ConciergeStore
import ConciergeTestSupport
import Foundation
import Logging

@testable import ConciergeServer

/// A folder of its own per test, and the configured database's storage on it.
struct BackupPlace {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("concierge-backup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> URL { folder.appendingPathComponent(name) }

    /// A migrated database on `engine`, with its storage (a file in this folder for SQLite).
    func database(_ engine: TestEngine) async throws -> (
        storage: ServerConfiguration.Storage, database: any SQLDatabase
    ) {
        switch engine {
        case .sqlite:
            let path = file("live.sqlite").path
            let database = try await SQLiteEngine.open(path: path, logger: TestApp.quiet)
            try await Migrator(database: database).migrate()
            return (.sqlite(path: path), database)
        case .postgres:
            let url = try PostgresURL(try await PostgresTestServer.shared.makeDatabaseURL())
            let database = PostgresEngine(url: url, logger: TestApp.quiet)
            try await Migrator(database: database).migrate()
            return (.postgres(url), database)
        }
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }
}

extension DatabaseBackup {
    init(storage: ServerConfiguration.Storage) {
        self.init(storage: storage, logger: TestApp.quiet, now: { Date() })
    }
}

/// Rewrites a manifest as a backup made elsewhere would have it (a file changed on purpose, its
/// checksum made to match), so a test reaches the checks behind the checksum.
func rewriteManifestChecksum(of file: URL) throws {
    var manifest = try BackupManifest.read(besides: file)
    manifest.sha256 = try FileDigest.sha256Hex(of: file)
    try manifest.write(besides: file)
}

func settingKeys(_ db: any SQLExecutor) async throws -> Set<String> {
    Set(try await db.query("SELECT key FROM settings").map { try $0.string("key") })
}
