import ConciergeCore
import ConciergeProviders
import ConciergeStore
import Foundation

/// What `/ready` reads besides the schema version: the outbox backlog and the providers' last
/// answers (recorded by the provider transport).
struct ReadinessSources: Sendable {
    let backlog: SQLOutboxBacklog
    let providers: ProviderCallRegistry
    let clock: any TimeSource
    /// Nil when scheduled backups are off.
    let backups: BackupStatus?

    init(
        database: any SQLDatabase, clock: any TimeSource, providers: ProviderCallRegistry = .shared,
        backups: BackupStatus? = nil
    ) {
        self.backlog = SQLOutboxBacklog(database: database)
        self.providers = providers
        self.clock = clock
        self.backups = backups
    }

    /// Throws when the database does not answer.
    func report(engine: String, schemaVersion: Int) async throws -> ReadinessReport {
        let now = clock.now
        let channels = try await backlog.pendingByChannel()
        let oldest = channels.map(\.oldestQueuedAt).min()
        return ReadinessReport(
            status: "ready",
            database: .init(engine: engine, reachable: true, schemaVersion: schemaVersion),
            outbox: .init(
                pending: channels.reduce(0) { $0 + $1.pending },
                oldestAgeSeconds: oldest.map { max(0, Int(now.timeIntervalSince($0))) },
                byChannel: Dictionary(uniqueKeysWithValues: channels.map { ($0.channel, $0.pending) })),
            providers: providers.lastCalls.map {
                .init(
                    name: $0.provider, ok: $0.ok, at: ReadinessReport.timestamp.format($0.at), error: $0.error)
            },
            backups: backups.map { ReadinessReport.Backups($0.snapshot, every: $0.every, now: now) })
    }
}

/// The body of a 200 from `/ready`. A failing provider does not make the instance unready (no
/// other instance would reach it better); it is reported for the operator to see. So is a failed
/// scheduled backup: taking every instance out of the load balancer would not make one.
struct ReadinessReport: Encodable {
    struct Database: Encodable {
        let engine: String
        let reachable: Bool
        let schemaVersion: Int
    }

    struct Outbox: Encodable {
        /// Notifications not delivered yet, all channels together.
        let pending: Int
        /// How long the oldest of them has waited; null when none waits.
        let oldestAgeSeconds: Int?
        let byChannel: [String: Int]

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(pending, forKey: .pending)
            try container.encode(oldestAgeSeconds, forKey: .oldestAgeSeconds)
            try container.encode(byChannel, forKey: .byChannel)
        }

        enum CodingKeys: String, CodingKey { case pending, oldestAgeSeconds, byChannel }
    }

    struct Provider: Encodable {
        let name: String
        let ok: Bool
        /// When the last call ended (ISO 8601, UTC).
        let at: String
        /// Null when it went well.
        let error: String?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(ok, forKey: .ok)
            try container.encode(at, forKey: .at)
            try container.encode(error, forKey: .error)
        }

        enum CodingKeys: String, CodingKey { case name, ok, at, error }
    }

    /// The scheduled backups (CONCIERGE_BACKUP_EVERY); absent when they are off.
    struct Backups: Encodable {
        /// False when the last attempt failed; `lastError` says why.
        let ok: Bool
        let everySeconds: Int
        /// When the last good backup's snapshot was taken (ISO 8601, UTC); null before the first.
        let lastSuccessAt: String?
        let lastSuccessAgeSeconds: Int?
        let lastError: String?

        init(_ snapshot: BackupStatus.Snapshot, every: TimeInterval, now: Date) {
            ok = snapshot.lastFailure == nil
            everySeconds = Int(every)
            lastSuccessAt = snapshot.lastSuccess.map { ReadinessReport.timestamp.format($0) }
            lastSuccessAgeSeconds = snapshot.lastSuccess.map { max(0, Int(now.timeIntervalSince($0))) }
            lastError = snapshot.lastFailure?.error
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(ok, forKey: .ok)
            try container.encode(everySeconds, forKey: .everySeconds)
            try container.encode(lastSuccessAt, forKey: .lastSuccessAt)
            try container.encode(lastSuccessAgeSeconds, forKey: .lastSuccessAgeSeconds)
            try container.encode(lastError, forKey: .lastError)
        }

        enum CodingKeys: String, CodingKey { case ok, everySeconds, lastSuccessAt, lastSuccessAgeSeconds, lastError }
    }

    let status: String
    let database: Database
    let outbox: Outbox
    /// Each provider this instance called since it started, by name.
    let providers: [Provider]
    let backups: Backups?

    static let timestamp = Date.ISO8601FormatStyle(timeZone: .gmt)
}
