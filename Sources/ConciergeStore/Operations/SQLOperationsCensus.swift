public import Foundation

/// What the operators' gauges show, counted in the database when Prometheus scrapes: a few
/// GROUP BY queries over indexed columns, so every instance reports the same figures.
public struct SQLOperationsCensus: Sendable {
    /// One count of a GROUP BY: its labels (vertical, state, channel …) and how many rows.
    public struct Count: Sendable, Equatable {
        public let labels: [String: String]
        public let value: Int

        public init(labels: [String: String], value: Int) {
            self.labels = labels
            self.value = value
        }
    }

    /// The figures of one scrape.
    public struct Figures: Sendable, Equatable {
        /// Platform orders (events, stays) by vertical and state.
        public var orders: [Count] = []
        /// Each vertical's own bookings (rides bookings, events bookings, stays reservations).
        public var bookings: [Count] = []
        /// Holds still holding their units, by the vertical of their units.
        public var activeHolds: [Count] = []
        /// Notifications waiting to be sent, by channel.
        public var outboxBacklog: [Count] = []
        /// When the oldest waiting notification was queued; nil when none waits.
        public var oldestPendingNotification: Date?
    }

    /// The bookings table of each vertical that has one, and its state column.
    static let bookingTables: [String: (table: String, state: String)] = [
        "rides": ("bookings", "state"), "events": ("events_bookings", "state"),
        "stays": ("stays_reservations", "status"),
    ]

    private let database: any SQLDatabase
    private let verticals: [String]

    /// - Parameter verticals: the verticals this server runs; another vertical's tables may not exist.
    public init(database: any SQLDatabase, verticals: [String]) {
        self.database = database
        self.verticals = verticals
    }

    public func figures(now: Date) async throws -> Figures {
        var figures = Figures()
        figures.orders = try await counts(
            "SELECT vertical, state, COUNT(*) AS n FROM orders GROUP BY vertical, state", labels: ["vertical", "state"])
        for vertical in verticals {
            guard let source = Self.bookingTables[vertical] else { continue }
            let byState = try await counts(
                "SELECT \(source.state) AS state, COUNT(*) AS n FROM \(source.table) GROUP BY \(source.state)",
                labels: ["state"])
            figures.bookings += byState.map {
                Count(labels: $0.labels.merging(["vertical": vertical]) { a, _ in a }, value: $0.value)
            }
        }
        figures.activeHolds = try await counts(
            """
            SELECT \(unitVertical) AS vertical, COUNT(DISTINCT h.id) AS n
            FROM holds h JOIN hold_items i ON i.hold_id = h.id
            WHERE h.state = 'held' AND h.expires_at > ? GROUP BY 1
            """, [SQLValue(now)], labels: ["vertical"])
        // The same query as /ready's, so the gauge and the probe never disagree.
        let backlog = try await SQLOutboxBacklog(database: database).pendingByChannel()
        figures.outboxBacklog = backlog.map { Count(labels: ["channel": $0.channel], value: $0.pending) }
        figures.oldestPendingNotification = backlog.map(\.oldestQueuedAt).min()
        return figures
    }

    /// A unit key starts with its vertical: `events:show_1:seat_A12`.
    private var unitVertical: String {
        switch database.dialect {
        case .sqlite: "substr(i.unit_key, 1, instr(i.unit_key, ':') - 1)"
        case .postgres: "split_part(i.unit_key, ':', 1)"
        }
    }

    private func counts(_ sql: String, _ binds: [SQLValue] = [], labels: [String]) async throws -> [Count] {
        try await database.query(sql, binds).map { row in
            Count(
                labels: Dictionary(uniqueKeysWithValues: try labels.map { ($0, try row.string($0)) }),
                value: try row.int("n"))
        }
    }
}
