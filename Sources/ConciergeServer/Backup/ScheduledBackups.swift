import ConciergeCore
import Foundation
import Logging

/// The server's own backups (`CONCIERGE_BACKUP_DIR`, `_EVERY`, `_KEEP`): checked on every worker
/// tick against the injected clock, made when the last good one is `every` old, then the folder
/// pruned to the newest `keep`. A failed attempt is tried again after five minutes (or `every`,
/// if shorter). The last good backup's time survives a restart: it is read from the newest
/// manifest in the folder.
struct ScheduledBackups: Sendable {
    let schedule: BackupSchedule
    let backup: DatabaseBackup
    let clock: any TimeSource
    let status: BackupStatus
    let logger: Logger
    private let turns = BackupTurns()

    static let prefix = "concierge-"

    init(schedule: BackupSchedule, backup: DatabaseBackup, clock: any TimeSource, logger: Logger) {
        self.schedule = schedule
        self.backup = backup
        self.clock = clock
        self.logger = logger
        let newest = Self.backups(in: schedule.directory).last.flatMap {
            try? BackupManifest.read(besides: $0).created
        }
        status = BackupStatus(every: schedule.every, lastSuccess: newest)
    }

    /// Backs up when one is due; returns the file it wrote, if any. One at a time: a call while
    /// a backup runs waits for it, and then finds none due.
    @discardableResult
    func runIfDue() async -> URL? {
        await turns.next { await attemptIfDue() }
    }

    private func attemptIfDue() async -> URL? {
        let now = clock.now
        let state = status.snapshot
        if let last = state.lastSuccess, now.timeIntervalSince(last) < schedule.every { return nil }
        if let failure = state.lastFailure, now.timeIntervalSince(failure.at) < min(300, schedule.every) { return nil }
        let file = schedule.directory.appendingPathComponent(Self.fileName(at: now, engine: backup.storage.engineName))
        do {
            let manifest = try await backup.backup(to: file)
            status.succeeded(at: now)
            logger.info(
                "scheduled backup written",
                metadata: ["file": "\(file.path)", "bytes": "\(manifest.bytes)", "seconds": "\(manifest.seconds)"])
            prune()
            return file
        } catch {
            status.failed(at: now, "\(error)")
            logger.error("scheduled backup failed: \(error)", metadata: ["file": "\(file.path)"])
            return nil
        }
    }

    /// The newest `keep` backups stay, each with its manifest.
    func prune() {
        let all = Self.backups(in: schedule.directory)
        for old in all.dropLast(schedule.keep) {
            try? FileManager.default.removeItem(at: old)
            try? FileManager.default.removeItem(at: BackupManifest.url(besides: old))
        }
    }

    /// `concierge-20261127T134500Z.sqlite`: names sort by time.
    static func fileName(at date: Date, engine: String) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let stamp = String(
            format: "%04d%02d%02dT%02d%02d%02dZ", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0,
            parts.minute ?? 0, parts.second ?? 0)
        return "\(prefix)\(stamp).\(engine == "sqlite" ? "sqlite" : "pgdump")"
    }

    /// The scheduled backups in `directory`, oldest first (manifests and unfinished files aside).
    static func backups(in directory: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return
            names
            .filter { $0.hasPrefix(prefix) && ($0.hasSuffix(".sqlite") || $0.hasSuffix(".pgdump")) }
            .sorted()
            .map { directory.appendingPathComponent($0) }
    }
}

/// Runs the backups one after another, whoever asks.
actor BackupTurns {
    private var last: Task<URL?, Never>?

    func next(_ body: @escaping @Sendable () async -> URL?) async -> URL? {
        let previous = last
        let turn = Task {
            _ = await previous?.value
            return await body()
        }
        last = turn
        return await turn.value
    }
}
