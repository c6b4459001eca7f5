import ConciergeCore
import ConciergeStore
import Foundation
import Logging

/// A PostgreSQL database dumped with `pg_dump --format=custom` and restored with `pg_restore`.
///
/// The manifest's row counts and schema versions are read in the very snapshot the dump is taken
/// from: a repeatable-read transaction exports its snapshot and `pg_dump --snapshot` dumps that,
/// so what the manifest says is what the archive holds, whatever commits meanwhile.
struct PostgresDatabaseBackup {
    let url: PostgresURL
    let logger: Logger

    func backup(to file: URL, now: @escaping @Sendable () -> Date) async throws -> BackupManifest {
        let started = ContinuousClock.now
        let dump = try ExternalTool("pg_dump")
        let partial = file.path + ".partial"
        defer { try? FileManager.default.removeItem(atPath: partial) }
        let (connection, password) = (libpqConnection, passwordEnvironment)
        let database = PostgresEngine(url: url, logger: logger)
        let taken: (Date, [String: Int], [String: Int])
        do {
            taken = try await database.transaction { db in
                try await db.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                guard let snapshot = try await db.query("SELECT pg_export_snapshot() AS id").first?.string("id") else {
                    throw BackupRefusal("PostgreSQL exported no snapshot")
                }
                let at = now()
                let versions = try await Migrator.appliedVersions(in: db)
                let counts = try await DatabaseInventory.rowCounts(db)
                _ = try await dump.run(
                    [
                        "--format=custom", "--no-owner", "--no-privileges", "--snapshot=\(snapshot)",
                        "--file=\(partial)", "--dbname=\(connection)",
                    ], environment: password)
                return (at, versions, counts)
            }
            try await database.close()
        } catch {
            try? await database.close()
            throw error
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: partial)
        // The archive's table of contents reads back: the dump is whole.
        _ = try await ExternalTool("pg_restore").run(["--list", partial])
        try DatabaseBackup.move(partial, to: file)
        let manifest = BackupManifest(
            engine: "postgresql", createdAt: BackupManifest.timestamp(taken.0), file: file.lastPathComponent,
            bytes: try SQLiteDatabaseBackup.size(of: file), sha256: try FileDigest.sha256Hex(of: file),
            schemaVersions: taken.1, rowCounts: taken.2, integrityCheck: "ok",
            seconds: (ContinuousClock.now - started).seconds)
        try manifest.write(besides: file)
        return manifest
    }

    /// Into an empty database; `force` drops what is there first (`pg_restore --clean`). All in
    /// one transaction: a restore that fails leaves the database as it was.
    func restore(from file: URL, manifest: BackupManifest, force: Bool) async throws {
        let restoreTool = try ExternalTool("pg_restore")
        do {
            _ = try await restoreTool.run(["--list", file.path])
        } catch {
            throw BackupRefusal("\(file.path) is not a readable pg_dump archive (\(error)); nothing was restored")
        }
        try DatabaseBackup.refuseNewer(manifest.schemaVersions, file: file)
        let database = PostgresEngine(url: url, logger: logger)
        let tables: [String]
        do {
            tables = try await DatabaseInventory.tables(database)
            try await database.close()
        } catch {
            try? await database.close()
            throw error
        }
        if !tables.isEmpty, !force {
            throw BackupRefusal(
                "the database \(url.database) is not empty (\(tables.count) tables); restore into an empty database "
                    + "(createdb), or pass --force to drop its tables and put the backup's in their place")
        }
        var arguments = ["--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction"]
        if !tables.isEmpty { arguments += ["--clean", "--if-exists"] }
        _ = try await restoreTool.run(
            arguments + ["--dbname=\(libpqConnection)", file.path], environment: passwordEnvironment)
    }

    /// libpq's keyword form; the password goes by environment, not on a command line `ps` shows.
    private var libpqConnection: String {
        func quoted(_ value: String) -> String {
            "'" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
        }
        return "host=\(quoted(url.host)) port=\(url.port) user=\(quoted(url.username)) "
            + "dbname=\(quoted(url.database)) sslmode=\(url.tls.rawValue)"
    }

    private var passwordEnvironment: [String: String] {
        url.password.map { ["PGPASSWORD": $0] } ?? [:]
    }
}
