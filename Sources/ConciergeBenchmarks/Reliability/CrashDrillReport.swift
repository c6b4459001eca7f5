import ConciergeModels
import Foundation

/// What a drill found.
public struct CrashDrillReport: Sendable, Codable {
    public struct Round: Sendable, Codable {
        public let round: Int
        /// How long the load ran before kill -9.
        public let crashAfterMilliseconds: Int
        /// Bookings answered 200 (during the load and on the retries after the restart).
        public let bookingsAcknowledged: Int
        /// Sandbox payments answered 303 after `outcome=paid`.
        public let paymentsAcknowledged: Int
        /// Booking requests sent twice with one key (both must name the same booking).
        public let replays: Int
        /// Requests in flight at the kill, sent again to the restarted server.
        public let retriedAfterRestart: Int
        /// Of those, booking retries answered 409 `request_in_progress`.
        public let retriesInProgress: Int
        /// Unexpected answers before the kill (not violations, but worth a look).
        public let loadErrors: Int
        public let restartMilliseconds: Int
    }

    public let engine: String
    public let rounds: Int
    public let connections: Int
    public let seed: UInt64
    public let perRound: [Round]
    public let bookingsAcknowledged: Int
    public let paymentsAcknowledged: Int
    /// Confirmed bookings whose confirmations were counted in the dev outbox.
    public let confirmationsChecked: Int
    public let violations: [String]
    public let seconds: Double
    /// The servers' logs, kept when there were violations.
    public let serverLogs: String?

    public var passed: Bool { violations.isEmpty }

    /// The short table `concierge reliability crash` prints.
    public var table: String {
        var lines = [
            "crash drill · \(engine) · \(rounds) rounds · \(connections) connections · seed \(seed) · "
                + String(format: "%.1f s", seconds),
            "",
        ]
        let header = ["round", "killed after", "bookings", "payments", "replays", "retried", "409", "errors"]
        var rows = [header]
        for round in perRound {
            rows.append([
                String(round.round), "\(round.crashAfterMilliseconds) ms", String(round.bookingsAcknowledged),
                String(round.paymentsAcknowledged), String(round.replays), String(round.retriedAfterRestart),
                String(round.retriesInProgress), String(round.loadErrors),
            ])
        }
        let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            lines.append(
                row.enumerated().map { column, cell in
                    String(repeating: " ", count: widths[column] - cell.count) + cell
                }.joined(separator: "  "))
        }
        lines.append("")
        lines.append("bookings acknowledged   \(bookingsAcknowledged)")
        lines.append("payments acknowledged   \(paymentsAcknowledged)")
        lines.append("confirmations checked   \(confirmationsChecked)")
        if violations.isEmpty {
            lines.append("violations              none")
        } else {
            lines.append("violations              \(violations.count)")
            for violation in violations.prefix(50) { lines.append("  - \(violation)") }
            if violations.count > 50 { lines.append("  … \(violations.count - 50) more (see --json)") }
            if let serverLogs { lines.append("server logs kept in \(serverLogs)") }
        }
        return lines.joined(separator: "\n")
    }

    public func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
