import ConciergeStore
import Foundation
import Logging

/// The backup drill (`concierge reliability backup`): bookings under load, `concierge backup`
/// mid-load, `concierge restore` into a fresh place, and a check that every booking
/// acknowledged before the backup began is in the copy, with its payment record (and, when
/// its payment was acknowledged too, paid).
///
/// It runs `concierge serve` (dev mode, sandbox payments) on a database of its own: an SQLite
/// file in a temporary folder, or on PostgreSQL a database on a server it starts itself (`initdb`,
/// `pg_ctl`), or one named by `databaseURL`. The load runs `connections` clients until
/// `bookingsBeforeBackup` bookings are acknowledged (the seed: 100,000 measures a sizeable
/// database), then the backup runs with the load still going, and the load stops when it ends.
/// The restore goes into a new SQLite file, or a new database on the same PostgreSQL server.
public struct BackupDrill: Sendable {
    public enum Engine: String, Sendable, CaseIterable {
        case sqlite
        case postgresql
    }

    public var engine = Engine.sqlite
    public var connections = 8
    public var bookingsBeforeBackup = 200
    public var serverLogLevel = "warning"
    /// The server binary; this executable (`concierge`) by default.
    public var executable = ServerProcess.ownExecutable

    public init() {}

    public func run(progress: @Sendable (String) -> Void = { _ in }) async throws -> BackupDrillReport {
        let started = ContinuousClock.now
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "concierge-backup-drill-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var postgres: ThrowawayPostgres?
        defer { if postgres == nil { try? FileManager.default.removeItem(at: directory) } }

        let live: String
        let fresh: String
        switch engine {
        case .sqlite:
            live = directory.appendingPathComponent("live.sqlite").path
            fresh = directory.appendingPathComponent("restored.sqlite").path
        case .postgresql:
            progress("starting a PostgreSQL server of its own")
            let server = try await ThrowawayPostgres.start(in: directory)
            postgres = server
            live = try await server.makeDatabase("drill_live")
            fresh = try await server.makeDatabase("drill_restored")
        }
        do {
            var report = try await drill(directory: directory, live: live, fresh: fresh, progress: progress)
            await postgres?.stop()
            if postgres != nil { try? FileManager.default.removeItem(at: directory) }
            report.seconds = HTTPBenchmark.seconds(ContinuousClock.now - started)
            return report
        } catch {
            await postgres?.stop()
            if postgres != nil { try? FileManager.default.removeItem(at: directory) }
            throw error
        }
    }

    private func environment(database: String, binaries: String?) -> [String: String] {
        var environment = HTTPBenchmark.rateLimits
        environment["CONCIERGE_MODE"] = "dev"
        environment["CONCIERGE_PAYMENT_PROVIDER"] = "sandbox"
        environment["CONCIERGE_LOG_LEVEL"] = serverLogLevel
        environment["CONCIERGE_BCRYPT_COST"] = "4"
        if engine == .sqlite {
            environment["CONCIERGE_SQLITE_PATH"] = database
        } else {
            environment["DATABASE_URL"] = database
        }
        if let binaries { environment["CONCIERGE_PG_BIN"] = binaries }
        return environment
    }

    private func drill(directory: URL, live: String, fresh: String, progress: @Sendable (String) -> Void)
        async throws -> BackupDrillReport
    {
        let binaries = engine == .postgresql ? ThrowawayPostgres.findBinaries() : nil
        let server = try ServerProcess(
            executable: executable, port: try await ServerProcess.freePortOutsideEphemeralRange(),
            environment: environment(database: live, binaries: binaries),
            logPath: directory.appendingPathComponent("server.log").path)
        try await server.start(timeout: .seconds(60))
        let ledger = BackupDrillLedger()
        let file = directory.appendingPathComponent(engine == .sqlite ? "backup.sqlite" : "backup.pgdump")
        let backupSeconds: Double
        let before: (booked: [String], paid: [String])
        let bookingsAtEnd: Int
        do {
            let fixture = try await DrillFixture.prepare(port: server.port, customers: connections)
            let load = Task { [port = server.port, connections] in
                await BackupDrillLoad(port: port, fixture: fixture, ledger: ledger).run(connections: connections)
            }
            var reported = 0
            while ledger.bookings < bookingsBeforeBackup {
                if ledger.loadErrors.count > 1000 {
                    ledger.stop()
                    throw LoadError("the load keeps failing: \(ledger.loadErrors.first ?? "")")
                }
                if ledger.bookings >= reported + 10_000 {
                    reported = ledger.bookings / 10_000 * 10_000
                    progress("\(reported) bookings acknowledged")
                }
                try await Task.sleep(for: .milliseconds(20))
            }
            before = ledger.acknowledged()
            progress("backing up after \(before.booked.count) bookings, the load going on")
            let began = ContinuousClock.now
            try await runConcierge(
                ["backup", "--to", file.path], database: live, binaries: binaries, directory: directory, log: "backup")
            backupSeconds = HTTPBenchmark.seconds(ContinuousClock.now - began)
            bookingsAtEnd = ledger.bookings
            ledger.stop()
            await load.value
        } catch {
            ledger.stop()
            server.stop()
            throw error
        }
        server.stop()

        progress("restoring into a fresh \(engine == .sqlite ? "file" : "database")")
        let restoreBegan = ContinuousClock.now
        try await runConcierge(
            ["restore", file.path], database: fresh, binaries: binaries, directory: directory, log: "restore")
        let restoreSeconds = HTTPBenchmark.seconds(ContinuousClock.now - restoreBegan)

        let manifest = try JSONDecoder().decode(
            DrillManifest.self,
            from: try Data(contentsOf: URL(fileURLWithPath: file.path + ".manifest.json")))
        let (orders, violations) = try await verify(fresh, booked: before.booked, paid: before.paid)
        return BackupDrillReport(
            engine: engine.rawValue, connections: connections, bookingsBeforeBackup: before.booked.count,
            paymentsBeforeBackup: before.paid.count, bookingsDuringBackup: bookingsAtEnd - before.booked.count,
            ordersInCopy: orders, rowsInCopy: manifest.rowCounts.values.reduce(0, +), backupSeconds: backupSeconds,
            backupBytes: manifest.bytes, restoreSeconds: restoreSeconds, loadErrors: ledger.loadErrors.count,
            violations: violations, seconds: 0)
    }

    /// Every booking acknowledged before the backup in the restored copy with a payment row;
    /// every payment acknowledged before it, paid there.
    private func verify(_ database: String, booked: [String], paid: [String]) async throws -> (Int, [String]) {
        var logger = Logger(label: "concierge.backup-drill")
        logger.logLevel = .warning
        let db: any SQLDatabase =
            engine == .sqlite
            ? try await SQLiteEngine.open(path: database, logger: logger)
            : PostgresEngine(url: try PostgresURL(database), logger: logger)
        let rows: [SQLRow]
        do {
            rows = try await db.query(
                """
                SELECT o.reference AS reference, p.status AS status FROM orders o
                LEFT JOIN payments p ON p.order_id = o.id WHERE o.vertical = 'rides'
                """)
            try await db.close()
        } catch {
            try? await db.close()
            throw error
        }
        var payments: [String: [String]] = [:]
        for row in rows {
            let reference = try row.string("reference")
            payments[reference, default: []] += try row.optionalString("status").map { [$0] } ?? []
        }
        var violations: [String] = []
        for reference in booked {
            guard let statuses = payments[reference] else {
                violations.append("booking \(reference), acknowledged before the backup began, is not in the copy")
                continue
            }
            if statuses.isEmpty { violations.append("booking \(reference) is in the copy without its payment record") }
        }
        for reference in paid where payments[reference]?.contains("paid") != true {
            violations.append(
                "booking \(reference) was paid before the backup began; in the copy its payments are "
                    + "\(payments[reference] ?? [])")
        }
        return (payments.count, violations)
    }

    /// `concierge backup` or `restore` as an operator runs it; throws with its output when it fails.
    private func runConcierge(
        _ arguments: [String], database: String, binaries: String?, directory: URL, log: String
    ) async throws {
        let inherited = ProcessInfo.processInfo.environment
        var variables = ["PATH": inherited["PATH"] ?? "/usr/bin:/bin", "HOME": inherited["HOME"] ?? "/tmp"]
        for (name, value) in environment(database: database, binaries: binaries) { variables[name] = value }
        let logPath = directory.appendingPathComponent("\(log).log").path
        let status = try await ChildRun.run(executable, arguments, environment: variables, log: logPath)
        guard status == 0 else {
            let output = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            throw LoadError("concierge \(arguments.joined(separator: " ")) failed (exit \(status)): \(output)")
        }
    }
}

/// The manifest fields the drill reports (the server's `BackupManifest`).
private struct DrillManifest: Decodable {
    let bytes: Int
    let rowCounts: [String: Int]
}
