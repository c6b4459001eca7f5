import ConciergeCore
import ConciergeStore
public import Foundation
public import Logging

/// `concierge backup` and `concierge restore` on the configured database, either engine.
public struct DatabaseBackup: Sendable {
    let storage: ServerConfiguration.Storage
    let logger: Logger
    let now: @Sendable () -> Date

    public init(
        configuration: ServerConfiguration, logger: Logger = Logger(label: "concierge.backup"),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.init(storage: configuration.storage, logger: logger, now: now)
    }

    init(storage: ServerConfiguration.Storage, logger: Logger, now: @escaping @Sendable () -> Date) {
        self.storage = storage
        self.logger = logger
        self.now = now
    }

    /// Copies the live database to `file` and writes `FILE.manifest.json` beside it.
    public func backup(to file: URL) async throws -> BackupManifest {
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        switch storage {
        case .sqlite(let path, _): return try await SQLiteDatabaseBackup(path: path).backup(to: file, now: now)
        case .postgres(let url):
            return try await PostgresDatabaseBackup(url: url, logger: logger).backup(to: file, now: now)
        }
    }

    /// Puts the backup at `file` in place of the configured database, after checking it against
    /// its manifest (checksum, engine), its integrity and its schema. Throws `BackupRefusal`
    /// with the reason when it will not.
    public func restore(from file: URL, force: Bool = false) async throws -> BackupManifest {
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw BackupRefusal("\(file.path) does not exist")
        }
        let manifest = try BackupManifest.read(besides: file)
        guard manifest.engine == storage.engineName else {
            throw BackupRefusal(
                "\(file.lastPathComponent) is a \(manifest.engine) backup, but the configured database is "
                    + "\(storage.engineName)")
        }
        let checksum = try FileDigest.sha256Hex(of: file)
        guard checksum == manifest.sha256 else {
            throw BackupRefusal(
                "\(file.path) is damaged: its SHA-256 is \(checksum), the manifest says \(manifest.sha256); "
                    + "nothing was restored")
        }
        switch storage {
        case .sqlite(let path, _):
            let stamp = now().formatted(.iso8601.year().month().day().time(includingFractionalSeconds: false))
                .replacingOccurrences(of: ":", with: "")
            try await SQLiteDatabaseBackup(path: path).restore(from: file, stamp: stamp)
        case .postgres(let url):
            try await PostgresDatabaseBackup(url: url, logger: logger).restore(
                from: file, manifest: manifest, force: force)
        }
        return manifest
    }

    /// Renames the finished `partial` file to `file`, replacing an older backup of that name.
    static func move(_ partial: String, to file: URL) throws {
        if FileManager.default.fileExists(atPath: file.path) { try FileManager.default.removeItem(at: file) }
        try FileManager.default.moveItem(atPath: partial, toPath: file.path)
    }

    /// A schema newer than this binary's migrations: the binary would run on tables it does not
    /// know (and refuses to serve them), so it does not restore them either.
    static func refuseNewer(_ versions: [String: Int], file: URL) throws {
        let newer = DatabaseInventory.newerThanKnown(versions)
        guard newer.isEmpty else {
            throw BackupRefusal(
                "\(file.lastPathComponent) has a newer schema than this binary knows: \(newer.joined(separator: ", ")); "
                    + "restore it with the release that made it, or a later one")
        }
    }
}
