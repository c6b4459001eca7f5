public import Foundation

/// How long personal fields are kept once their purpose is served (`CONCIERGE_RETENTION_*`,
/// docs/privacy.md).
public struct RetentionPeriods: Sendable, Equatable {
    /// Sent (or given-up) notifications: the outbox's rows and commute's notice history.
    public var sentNotifications: TimeInterval
    /// The dev outbox (`/dev/outbox`), which stands in for the providers in dev.
    public var devOutbox: TimeInterval
    /// Who acted on an order (`account:…`): afterwards the event keeps only the kind of actor.
    public var orderEvents: TimeInterval

    public init(sentNotifications: TimeInterval, devOutbox: TimeInterval, orderEvents: TimeInterval) {
        self.sentNotifications = sentNotifications
        self.devOutbox = devOutbox
        self.orderEvents = orderEvents
    }

    public static let day: TimeInterval = 86_400
}

/// The sweep every instance runs among the platform's jobs: each owner removes what has
/// outlived its period. Deletes and blanking updates are idempotent, so instances may overlap.
public struct SQLRetentionSweeper: Sendable {
    private let database: any SQLDatabase
    private let retention: RetentionPeriods
    private let owners: [any AccountDataOwner]

    public init(
        database: any SQLDatabase, retention: RetentionPeriods, owners: [any AccountDataOwner] = AccountDataOwners.all
    ) {
        self.database = database
        self.retention = retention
        self.owners = owners
    }

    public func sweep(now: Date) async throws {
        for owner in owners {
            try await owner.sweep(retention, now: now, in: database)
        }
    }
}
