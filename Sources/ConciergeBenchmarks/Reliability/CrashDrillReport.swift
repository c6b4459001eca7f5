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
        /// Seat orders the server opened (`seat-checkout` answered 200), paid (sandbox 303), and
        /// left unpaid on purpose so their holds lapse.
        public let seatOrdersAcknowledged: Int
        public let seatOrdersPaid: Int
        public let holdsLeftUnpaid: Int
        /// Stays reservations the server made (201), paid in the sandbox (303), and cancelled (200).
        public let staysReserved: Int
        public let staysPaid: Int
        public let staysCancelled: Int
    }

    /// The seat side (issue 12): what the events buyers were told, and what the checks found.
    public struct Seats: Sendable, Codable {
        public let buyers: Int
        public let ordersAcknowledged: Int
        public let ordersPaid: Int
        /// Seats the sales shows' seat maps showed `sold` at the last check.
        public let seatsSold: Int
        /// Seats in two paid orders (on the server's listings or in the buyers' own ledger).
        public let seatsSoldTwice: Int
        public let holdsLeftUnpaid: Int
        /// Unpaid orders found expired, their seats available again, once their holds lapsed.
        public let lapsedHoldsReleased: Int
        /// False when the drill ended before the unpaid holds lapsed (a round timed out).
        public let lapsesChecked: Bool
    }

    /// The stays side: what the guests were told.
    public struct Stays: Sendable, Codable {
        public let guests: Int
        public let reserved: Int
        public let paid: Int
        public let cancelled: Int
        /// `409 sold_out` answers: the guests racing for the last room of a night.
        public let soldOut: Int
    }

    /// One vertical in the database after the last restart, once the worker has run: what its
    /// clients were told, its orders by `orders.status`, its refunds owed, the inventory units
    /// checked, and the violations the audit found (listed in `violations` too).
    public struct Vertical: Sendable, Codable {
        public let name: String
        public let ordersAcknowledged: Int
        public let paymentsAcknowledged: Int
        public let cancellationsAcknowledged: Int
        public let confirmed: Int
        public let cancelled: Int
        public let refunded: Int
        /// Cancelled or refunded orders that were paid and kept a fee (all but it given back).
        public let keptAFee: Int
        public let expired: Int
        /// Awaiting payment or held.
        public let open: Int
        public let refundsOwedPaid: Int
        public let refundsOwedUnpaid: Int
        public let unitsChecked: Int
        public let violations: Int
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
    /// Nil when the drill ran no seat buyers.
    public let seats: Seats?
    /// Nil when the drill ran no stays guests.
    public let stays: Stays?
    /// The database audit per vertical; empty when the drill ended before it (a round timed out).
    public let verticals: [Vertical]
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
        let header = [
            "round", "killed after", "bookings", "payments", "replays", "retried", "409", "seat orders", "of them paid",
            "left unpaid", "stays", "paid", "cancelled", "errors",
        ]
        var rows = [header]
        for round in perRound {
            rows.append([
                String(round.round), "\(round.crashAfterMilliseconds) ms", String(round.bookingsAcknowledged),
                String(round.paymentsAcknowledged), String(round.replays), String(round.retriedAfterRestart),
                String(round.retriesInProgress), String(round.seatOrdersAcknowledged), String(round.seatOrdersPaid),
                String(round.holdsLeftUnpaid), String(round.staysReserved), String(round.staysPaid),
                String(round.staysCancelled), String(round.loadErrors),
            ])
        }
        lines += Self.aligned(rows)
        lines.append("")
        if !verticals.isEmpty {
            var audit = [
                [
                    "vertical", "acknowledged", "paid (303)", "cancelled (200)", "confirmed", "cancelled", "refunded",
                    "of them kept a fee", "expired", "open", "refunds owed paid", "unpaid", "units", "violations",
                ]
            ]
            for vertical in verticals {
                audit.append(
                    [
                        vertical.name, vertical.ordersAcknowledged, vertical.paymentsAcknowledged,
                        vertical.cancellationsAcknowledged, vertical.confirmed, vertical.cancelled, vertical.refunded,
                        vertical.keptAFee, vertical.expired, vertical.open, vertical.refundsOwedPaid,
                        vertical.refundsOwedUnpaid,
                        vertical.unitsChecked, vertical.violations,
                    ].map { "\($0)" })
            }
            lines.append(
                "database audit after the last restart (what the clients were told, then the orders by status):")
            lines += Self.aligned(audit)
            lines.append("")
        }
        func figure(_ name: String, _ value: String) {
            lines.append(name.padding(toLength: 26, withPad: " ", startingAt: 0) + value)
        }
        figure("bookings acknowledged", String(bookingsAcknowledged))
        figure("payments acknowledged", String(paymentsAcknowledged))
        figure("confirmations checked", String(confirmationsChecked))
        if let seats {
            figure("seat orders acknowledged", "\(seats.ordersAcknowledged) (\(seats.buyers) buyers)")
            figure("seat orders paid", String(seats.ordersPaid))
            figure("seats sold", String(seats.seatsSold))
            figure("seats sold twice", String(seats.seatsSoldTwice))
            figure(
                "lapsed holds released",
                "\(seats.lapsedHoldsReleased) of \(seats.holdsLeftUnpaid) left unpaid"
                    + (seats.lapsesChecked ? "" : " (not checked: the drill ended early)"))
        }
        if let stays {
            figure("stays reserved", "\(stays.reserved) (\(stays.guests) guests), \(stays.soldOut) × sold out")
            figure("stays paid", String(stays.paid))
            figure("stays cancelled", String(stays.cancelled))
        }
        if verticals.isEmpty { figure("database audit", "not run: the drill ended early") }
        if violations.isEmpty {
            figure("violations", "none")
        } else {
            figure("violations", String(violations.count))
            for violation in violations.prefix(50) { lines.append("  - \(violation)") }
            if violations.count > 50 { lines.append("  … \(violations.count - 50) more (see --json)") }
            if let serverLogs { lines.append("server logs kept in \(serverLogs)") }
        }
        return lines.joined(separator: "\n")
    }

    /// Rows of cells, right-aligned in columns.
    static func aligned(_ rows: [[String]]) -> [String] {
        let widths = (rows.first ?? []).indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                String(repeating: " ", count: widths[column] - cell.count) + cell
            }.joined(separator: "  ")
        }
    }

    public func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
