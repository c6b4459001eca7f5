import ConciergeCore
import ConciergeStore
import Foundation

/// A live SQLite database copied with the online backup API (`SQLiteOnlineBackup`), and a copy
/// put back in its place.
struct SQLiteDatabaseBackup {
    let path: String

    func backup(to file: URL, now: @Sendable () -> Date) async throws -> BackupManifest {
        let started = ContinuousClock.now
        guard FileManager.default.fileExists(atPath: path) else {
            throw BackupRefusal("there is no SQLite database at \(path) (CONCIERGE_SQLITE_PATH)")
        }
        // Written beside its final name and renamed when whole: a crash never leaves a half backup
        // under the name a restore would take.
        let partial = file.path + ".partial"
        defer { try? FileManager.default.removeItem(atPath: partial) }
        let snapshotAt = now()
        try await SQLiteOnlineBackup.copy(from: path, to: partial)
        // Owner only, as the database itself (phones, emails, session hashes).
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: partial)
        let copy = try SQLiteFile(path: partial, readOnly: false)
        let versions: [String: Int]
        let counts: [String: Int]
        do {
            try copy.leaveWALMode()
            let check = copy.integrityCheck()
            guard check == ["ok"] else {
                throw BackupRefusal(
                    "the copy failed PRAGMA integrity_check: \(check.prefix(5).joined(separator: "; "))")
            }
            versions = try await Migrator.appliedVersions(in: copy)
            counts = try await DatabaseInventory.rowCounts(copy)
            copy.close()
        } catch {
            copy.close()
            throw error
        }
        try DatabaseBackup.move(partial, to: file)
        let manifest = BackupManifest(
            engine: "sqlite", createdAt: BackupManifest.timestamp(snapshotAt), file: file.lastPathComponent,
            bytes: try Self.size(of: file), sha256: try FileDigest.sha256Hex(of: file), schemaVersions: versions,
            rowCounts: counts, integrityCheck: "ok", seconds: (ContinuousClock.now - started).seconds)
        try manifest.write(besides: file)
        return manifest
    }

    /// Checks the copy itself (its checksum was checked against the manifest already), then
    /// swaps it in. The database it replaces is kept beside it as `NAME.before-restore-TIME`.
    func restore(from file: URL, stamp: String) async throws {
        let candidate: SQLiteFile
        do {
            candidate = try SQLiteFile(path: file.path, readOnly: true)
        } catch {
            throw BackupRefusal("\(file.path) cannot be opened as an SQLite database: \(error)")
        }
        let check = candidate.integrityCheck()
        let versions = try? await Migrator.appliedVersions(in: candidate)
        candidate.close()
        guard check == ["ok"] else {
            throw BackupRefusal(
                "\(file.path) is damaged (PRAGMA integrity_check: \(check.prefix(5).joined(separator: "; "))); "
                    + "nothing was restored")
        }
        try DatabaseBackup.refuseNewer(versions ?? [:], file: file)
        try refuseIfInUse()

        let target = URL(fileURLWithPath: path)
        let incoming = URL(fileURLWithPath: path + ".restoring")
        try? FileManager.default.removeItem(at: incoming)
        try FileManager.default.copyItem(at: file, to: incoming)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: incoming.path)
        if FileManager.default.fileExists(atPath: path) {
            try FileManager.default.moveItem(atPath: path, toPath: "\(path).before-restore-\(stamp)")
        }
        for suffix in ["-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        try FileManager.default.moveItem(at: incoming, to: target)
    }

    /// A server keeps the database open in WAL mode, and SQLite leaves WAL mode only when no
    /// other connection has the file open: if that fails, someone is using it.
    private func refuseIfInUse() throws {
        guard FileManager.default.fileExists(atPath: path) else { return }
        do {
            let current = try SQLiteFile(path: path, readOnly: false)
            defer { current.close() }
            try current.leaveWALMode()
        } catch {
            throw BackupRefusal(
                "\(path) is in use (a running server has it open: \(error)); stop the server, then restore")
        }
    }

    static func size(of file: URL) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.intValue ?? 0
    }
}

extension Duration {
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
