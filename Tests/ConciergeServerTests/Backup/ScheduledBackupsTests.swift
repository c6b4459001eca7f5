import ConciergeCore
import ConciergeStore
import ConciergeTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// CONCIERGE_BACKUP_DIR / _EVERY / _KEEP: the server's own backups on the injected clock, their
/// retention, and what /ready and /metrics say of them.
@Suite struct ScheduledBackupsTests {
    @Test func backupsRunWhenDueOnTheInjectedClockAndArePrunedToKeep() async throws {
        let place = try BackupPlace()
        defer { place.remove() }
        let (storage, database) = try await place.database(.sqlite)
        let clock = ManualTimeSource()
        let folder = place.file("scheduled")
        let scheduled = ScheduledBackups(
            schedule: BackupSchedule(directory: folder, every: 6 * 3600, keep: 3),
            backup: DatabaseBackup(storage: storage, logger: TestApp.quiet, now: { clock.now }), clock: clock,
            logger: TestApp.quiet)

        #expect(await scheduled.runIfDue() != nil, "the first tick backs up at once")
        clock.advance(by: 5 * 3600)
        #expect(await scheduled.runIfDue() == nil, "not due before six hours")
        var written: [URL] = []
        for _ in 0..<5 {
            clock.advance(by: 3600 + 5 * 3600)
            written += [await scheduled.runIfDue()].compactMap { $0 }
        }
        try await database.close()

        #expect(written.count == 5)
        let kept = ScheduledBackups.backups(in: folder)
        #expect(kept == Array(written.suffix(3)), "the newest three are kept")
        for file in kept {
            #expect(try BackupManifest.read(besides: file).sha256 == (try FileDigest.sha256Hex(of: file)))
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(names.count == 6, "three backups and their manifests, nothing else: \(names)")
        #expect(scheduled.status.snapshot.lastSuccess == clock.now)

        // A restarted server reads its last good backup from the folder.
        let restarted = ScheduledBackups(
            schedule: scheduled.schedule, backup: scheduled.backup, clock: clock, logger: TestApp.quiet)
        #expect(restarted.status.snapshot.lastSuccess == clock.now)
        #expect(await restarted.runIfDue() == nil)
    }

    @Test func readyAndMetricsShowTheAgeOfTheLastGoodBackup() async throws {
        let place = try BackupPlace()
        defer { place.remove() }
        let app = try await TestApp.make(
            engine: .sqlite,
            environment: [
                "CONCIERGE_BACKUP_DIR": place.file("scheduled").path, "CONCIERGE_BACKUP_EVERY": "6h",
                "CONCIERGE_BACKUP_KEEP": "2", "CONCIERGE_METRICS_TOKEN": MetricsScrape.token,
            ])
        try await withBackups(app) { client, backups in
            await backups.tick()
            app.clock.advance(by: 100)
            let ready = try await client.send(.get, "/ready")
            #expect(ready.status == .ok)
            let body = try JSONSerialization.jsonObject(with: Data(buffer: ready.body)) as? [String: Any]
            let report = body?["backups"] as? [String: Any]
            #expect(report?["ok"] as? Bool == true)
            #expect(report?["lastSuccessAgeSeconds"] as? Int == 100)
            #expect(report?["everySeconds"] as? Int == 21_600)
            let metrics = try await client.send(.get, "/metrics", token: MetricsScrape.token)
            let text = String(buffer: metrics.body)
            #expect(MetricsScrape(text).value("concierge_backup_last_success_age_seconds") == 100)
            #expect(MetricsScrape(text).value("concierge_backup_last_failed") == 0)
            #expect(text.contains("# HELP concierge_backup_last_success_age_seconds "))
        }
    }

    @Test func aFailedBackupShowsOnReadyWithoutMakingItUnready() async throws {
        let place = try BackupPlace()
        defer { place.remove() }
        // A file where the folder should be: the backup cannot be written.
        let blocked = place.file("not-a-folder")
        try Data("x".utf8).write(to: blocked)
        let app = try await TestApp.make(
            engine: .sqlite,
            environment: [
                "CONCIERGE_BACKUP_DIR": blocked.path, "CONCIERGE_BACKUP_EVERY": "1d",
                "CONCIERGE_METRICS_TOKEN": MetricsScrape.token,
            ])
        try await withBackups(app) { client, backups in
            await backups.tick()
            let ready = try await client.send(.get, "/ready")
            #expect(ready.status == .ok)
            let body = try JSONSerialization.jsonObject(with: Data(buffer: ready.body)) as? [String: Any]
            let report = body?["backups"] as? [String: Any]
            #expect(report?["ok"] as? Bool == false)
            #expect((report?["lastError"] as? String)?.isEmpty == false)
            #expect(report?["lastSuccessAt"] is NSNull)
            let metrics = try await client.send(.get, "/metrics", token: MetricsScrape.token)
            #expect(MetricsScrape(String(buffer: metrics.body)).value("concierge_backup_last_failed") == 1)
            #expect(
                MetricsScrape(String(buffer: metrics.body)).value("concierge_backup_last_success_age_seconds") == nil)
        }
    }

    @Test func settingsAreCheckedAtStart() throws {
        #expect(try BackupSchedule(environment: [:]) == nil)
        #expect(
            try BackupSchedule(environment: ["CONCIERGE_BACKUP_EVERY": "6h", "CONCIERGE_BACKUP_DIR": "/b"])?.keep == 7)
        #expect(throws: ConfigurationError.self) { try BackupSchedule(environment: ["CONCIERGE_BACKUP_EVERY": "6h"]) }
        #expect(throws: ConfigurationError.self) {
            try BackupSchedule(environment: ["CONCIERGE_BACKUP_EVERY": "6 hours", "CONCIERGE_BACKUP_DIR": "/b"])
        }
        #expect(throws: ConfigurationError.self) {
            try BackupSchedule(environment: ["CONCIERGE_BACKUP_EVERY": "1m", "CONCIERGE_BACKUP_DIR": "/b"])
        }
    }

    /// The application as `serve` builds it, with its scheduled-backup worker handed to the test.
    private func withBackups(
        _ app: TestApp, _ body: @Sendable (any TestClientProtocol, MaintenanceService) async throws -> Void
    ) async throws {
        let assembly = try await assemble(configuration: app.configuration, clock: app.clock, logger: TestApp.quiet)
        let application = makeApplication(assembly: assembly, configuration: app.configuration) { _ in }
        let backups = try #require(assembly.scheduledBackups)
        try await application.test(.router) { client in try await body(client, backups) }
    }
}
