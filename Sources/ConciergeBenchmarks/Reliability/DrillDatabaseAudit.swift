import ConciergeCore
import ConciergeStore
import Foundation
import Logging

/// An order a client was told about, for the database audit.
struct ClaimedOrder: Sendable {
    enum Lookup: Sendable {
        /// `orders.reference` (a ride's booking reference, a stay's `STY-…`).
        case reference(String)
        /// `orders.id` (an events order).
        case id(String)
        /// A stay paid at the hotel: no order, its `stays_reservations` row.
        case staysReservation(Int)
    }

    let vertical: String
    let lookup: Lookup
    let label: String
    /// The sandbox answered 303 for `outcome=paid`.
    let paid: Bool
    /// The vertical's cancellation answered 200.
    let cancelled: Bool
    /// The page that makes the server ask the provider (the return page the 303 pointed to).
    let revisit: String?
}

/// After the last restart, with the server still running its worker: the invariants read from
/// the database itself, per vertical (rides, events, stays).
///
/// - **Inventory**: every unit has held + sold ≤ capacity, held is what its held holds hold, and
///   sold is what its sold holds hold (for a stays night, plus the reservations paid at the hotel
///   sold without a hold); no stays night has more confirmed reservations than the hotel has
///   rooms of the type.
/// - **Acknowledged orders**: every order a client was answered exists, with its payment row
///   (a stay paid at the hotel: its reservation); every payment the sandbox answered 303 for is
///   `paid` in the ledger and its order `confirmed`, `cancelled` or `refunded`; every cancellation
///   answered 200 left its order `cancelled` or `refunded`.
/// - **Money**, for every order: what its paid payments keep (paid − `refunded_cents`) is the
///   order's amount when it is confirmed, the cancellation fee when it is cancelled or refunded
///   (a stay's `charged_cents`; 0 elsewhere), and nothing otherwise; a confirmed order has a paid
///   payment.
/// - **Refunds owed**: no `refunds_owed` row is left unpaid.
/// - **Status**: `orders.status` is the vertical's own state mapped (`events_bookings.state`,
///   `stays_reservations.status`, `bookings.state`: pending, pending_payment, awaiting_payment →
///   awaiting_payment; a ride's dispatch states → confirmed).
///
/// Until `settleTimeout` the audit reads again while anything is off, visiting the return page of
/// every paid order not settled yet (the worker pays refunds owed once a second).
struct DrillDatabaseAudit {
    let database: CrashDrill.Database
    let claims: [ClaimedOrder]
    let settleTimeout: Duration
    let verticals = ["rides", "events", "stays"]

    struct Result {
        let verticals: [CrashDrillReport.Vertical]
        let violations: [String]
    }

    func run(port: Int) async throws -> Result {
        var logger = Logger(label: "concierge.crash-drill.audit")
        logger.logLevel = .warning
        let db: any SQLDatabase =
            switch database {
            case .sqlite(let path): try await SQLiteEngine.open(path: path, logger: logger)
            case .postgres(let url): PostgresEngine(url: try PostgresURL(url), logger: logger)
            }
        do {
            let result = try await settle(db, port: port)
            try await db.close()
            return result
        } catch {
            try? await db.close()
            throw error
        }
    }

    private func settle(_ db: any SQLDatabase, port: Int) async throws -> Result {
        let clock = ContinuousClock()
        let deadline = clock.now + settleTimeout
        while true {
            let snapshot = try await Snapshot.read(db)
            let (result, unsettled) = judge(snapshot)
            if result.violations.isEmpty || clock.now >= deadline { return result }
            // The browser's visit to the return page asks the provider and applies what it says.
            try await HTTPConnection.with(host: "127.0.0.1", port: port) { connection in
                for path in unsettled { _ = try await connection.send(.get(path)) }
            }
            try await Task.sleep(for: .milliseconds(500))
        }
    }

    // MARK: Reading

    struct OrderRow {
        let id: String
        let vertical: String
        let reference: String
        let status: String
        let amountCents: Int
    }

    struct PaymentRow {
        let status: String
        let amountCents: Int
        let refundedCents: Int
    }

    struct StayRow {
        let id: Int
        let orderID: String?
        let status: String
        let roomType: Int64
        let checkIn: String
        let checkOut: String
        let chargedCents: Int
    }

    struct Snapshot {
        var orders: [String: OrderRow] = [:]
        var orderByReference: [String: String] = [:]
        var payments: [String: [PaymentRow]] = [:]
        /// The vertical's own state of each order, by order id.
        var verticalStates: [String: String] = [:]
        var stays: [Int: StayRow] = [:]
        /// A prepaid stay's cancellation fee (`charged_cents`), by order id.
        var stayFees: [String: Int] = [:]
        var refundsOwed: [(key: String, orderID: String, amountCents: Int, paid: Bool, attempts: Int)] = []
        var units: [(key: String, capacity: Int, held: Int, sold: Int)] = []
        /// By unit key: what the held and the sold holds hold.
        var holdHeld: [String: Int] = [:]
        var holdSold: [String: Int] = [:]

        static func read(_ db: any SQLDatabase) async throws -> Snapshot {
            var snapshot = Snapshot()
            for row in try await db.query("SELECT id, vertical, reference, status, amount_cents FROM orders") {
                let order = OrderRow(
                    id: try row.string("id"), vertical: try row.string("vertical"),
                    reference: try row.string("reference"), status: try row.string("status"),
                    amountCents: try row.int("amount_cents"))
                snapshot.orders[order.id] = order
                snapshot.orderByReference[order.reference] = order.id
            }
            for row in try await db.query("SELECT order_id, status, amount_cents, refunded_cents FROM payments") {
                snapshot.payments[try row.string("order_id"), default: []].append(
                    PaymentRow(
                        status: try row.string("status"), amountCents: try row.int("amount_cents"),
                        refundedCents: try row.int("refunded_cents")))
            }
            for row in try await db.query("SELECT id, state FROM bookings") {
                snapshot.verticalStates[try row.string("id")] = try row.string("state")
            }
            for row in try await db.query("SELECT order_id, state FROM events_bookings") {
                snapshot.verticalStates[try row.string("order_id")] = try row.string("state")
            }
            for row in try await db.query(
                "SELECT id, order_id, status, room_type_id, check_in, check_out, charged_cents FROM stays_reservations")
            {
                let stay = StayRow(
                    id: try row.int("id"), orderID: try row.optionalString("order_id"),
                    status: try row.string("status"),
                    roomType: Int64(try row.int("room_type_id")), checkIn: try row.string("check_in"),
                    checkOut: try row.string("check_out"), chargedCents: try row.int("charged_cents"))
                snapshot.stays[stay.id] = stay
                if let orderID = stay.orderID {
                    snapshot.verticalStates[orderID] = stay.status
                    snapshot.stayFees[orderID] = stay.chargedCents
                }
            }
            for row in try await db.query("SELECT key, order_id, amount_cents, paid_at, attempts FROM refunds_owed") {
                snapshot.refundsOwed.append(
                    (
                        try row.string("key"), try row.string("order_id"), try row.int("amount_cents"),
                        try row.optionalDate("paid_at") != nil, try row.int("attempts")
                    ))
            }
            for row in try await db.query("SELECT unit_key, capacity, held, sold FROM inventory_units") {
                snapshot.units.append(
                    (try row.string("unit_key"), try row.int("capacity"), try row.int("held"), try row.int("sold")))
            }
            for row in try await db.query(
                """
                SELECT i.unit_key AS unit_key, h.state AS state, CAST(SUM(i.quantity) AS BIGINT) AS quantity
                FROM hold_items i JOIN holds h ON h.id = i.hold_id
                WHERE h.state IN ('held', 'sold') GROUP BY i.unit_key, h.state
                """)
            {
                let key = try row.string("unit_key")
                if try row.string("state") == "held" {
                    snapshot.holdHeld[key] = try row.int("quantity")
                } else {
                    snapshot.holdSold[key] = try row.int("quantity")
                }
            }
            return snapshot
        }
    }

    // MARK: Judging

    /// The platform status a vertical's own state means.
    static func mappedStatus(_ state: String) -> String {
        switch state {
        case "pending", "pending_payment", "awaiting_payment": "awaiting_payment"
        case "held", "cancelled", "expired", "refunded", "confirmed": state
        default: "confirmed"  // a ride's dispatch states
        }
    }

    /// The violations (each starting with its vertical) and counts, and the return pages of paid
    /// orders not settled yet.
    func judge(_ snapshot: Snapshot) -> (Result, unsettled: [String]) {
        var problems: [String: [String]] = [:]
        func violation(_ vertical: String, _ text: String) { problems[vertical, default: []].append(text) }
        var unsettled: [String] = []
        let calendar = Calendar(identifier: .gregorian)

        // Inventory: every unit, against its holds (and the stays sold without a hold).
        var soldAtHotel: [String: Int] = [:]
        var confirmedPerNight: [String: (roomType: Int64, count: Int)] = [:]
        for stay in snapshot.stays.values where stay.status == "confirmed" {
            guard let checkIn = StayNight(stay.checkIn), let checkOut = StayNight(stay.checkOut) else {
                violation("stays", "stay \(stay.id) has unreadable nights \(stay.checkIn) to \(stay.checkOut)")
                continue
            }
            var night = checkIn
            while night < checkOut {
                let key = StaysUnits.key(roomType: stay.roomType, night: night)
                confirmedPerNight[key, default: (stay.roomType, 0)].count += 1
                if stay.orderID == nil { soldAtHotel[key, default: 0] += 1 }
                night = night.adding(days: 1, in: calendar)
            }
        }
        var unitsChecked: [String: Int] = [:]
        for unit in snapshot.units {
            let vertical = unit.key.split(separator: ":").first.map(String.init) ?? unit.key
            unitsChecked[vertical, default: 0] += 1
            if unit.held + unit.sold > unit.capacity {
                violation(
                    vertical, "unit \(unit.key): \(unit.held) held + \(unit.sold) sold > capacity \(unit.capacity)")
            }
            let held = snapshot.holdHeld[unit.key, default: 0]
            let sold = snapshot.holdSold[unit.key, default: 0] + soldAtHotel[unit.key, default: 0]
            if unit.held != held || unit.sold != sold {
                violation(
                    vertical,
                    "unit \(unit.key) counts \(unit.held) held, \(unit.sold) sold, but its holds hold \(held) held, \(sold) sold"
                        + (soldAtHotel[unit.key].map { " (\($0) of them paid at the hotel)" } ?? ""))
            }
        }
        for (key, night) in confirmedPerNight.sorted(by: { $0.key < $1.key }) {
            let rooms = StaysDrillFixture.rooms(ofType: night.roomType)
            if let rooms, night.count > rooms {
                violation("stays", "\(key): \(night.count) confirmed reservations, the hotel has \(rooms) rooms")
            }
        }

        // Every order: its vertical's state, and the money its paid payments keep.
        var statuses: [String: [String: Int]] = [:]
        var keptAFee: [String: Int] = [:]
        for order in snapshot.orders.values.sorted(by: { $0.reference < $1.reference }) {
            statuses[order.vertical, default: [:]][order.status, default: 0] += 1
            let name = "\(order.vertical) order \(order.reference)"
            if let state = snapshot.verticalStates[order.id] {
                if Self.mappedStatus(state) != order.status {
                    violation(
                        order.vertical,
                        "\(name) is \(order.status) in orders but \(state) in the vertical's row")
                }
            } else if verticals.contains(order.vertical) {
                violation(order.vertical, "\(name) has no row of its vertical")
            }
            let paid = (snapshot.payments[order.id] ?? []).filter { $0.status == "paid" }
            let paidCents = paid.reduce(0) { $0 + $1.amountCents }
            let refundedCents = paid.reduce(0) { $0 + $1.refundedCents }
            let fee = snapshot.stayFees[order.id] ?? 0
            let keeps: Int
            switch order.status {
            case "confirmed":
                keeps = order.amountCents
                if paid.isEmpty { violation(order.vertical, "\(name) is confirmed without a paid payment") }
            case "cancelled", "refunded":
                keeps = paid.isEmpty ? 0 : fee
                if keeps > 0 { keptAFee[order.vertical, default: 0] += 1 }
            default: keeps = 0
            }
            if !paid.isEmpty, paidCents - refundedCents != keeps {
                violation(
                    order.vertical,
                    "\(name) is \(order.status); its payments took \(paidCents), gave back \(refundedCents), "
                        + "so keep \(paidCents - refundedCents), not \(keeps)")
            }
        }

        // Every refund owed is paid once the worker has run.
        var refundsOwed: [String: (paid: Int, unpaid: Int)] = [:]
        for owed in snapshot.refundsOwed {
            let vertical = snapshot.orders[owed.orderID]?.vertical ?? "?"
            if owed.paid {
                refundsOwed[vertical, default: (0, 0)].paid += 1
            } else {
                refundsOwed[vertical, default: (0, 0)].unpaid += 1
                violation(
                    vertical,
                    "refund owed \(owed.key) (\(owed.amountCents) for order \(snapshot.orders[owed.orderID]?.reference ?? owed.orderID)) is unpaid after \(owed.attempts) attempts"
                )
            }
        }

        // What the clients were told.
        var acknowledged: [String: (orders: Int, paid: Int, cancelled: Int)] = [:]
        for claim in claims {
            acknowledged[claim.vertical, default: (0, 0, 0)].orders += 1
            if claim.paid { acknowledged[claim.vertical, default: (0, 0, 0)].paid += 1 }
            if claim.cancelled { acknowledged[claim.vertical, default: (0, 0, 0)].cancelled += 1 }
            let orderID: String?
            switch claim.lookup {
            case .reference(let reference): orderID = snapshot.orderByReference[reference]
            case .id(let id): orderID = snapshot.orders[id] == nil ? nil : id
            case .staysReservation(let id):
                guard let stay = snapshot.stays[id] else {
                    violation(claim.vertical, "\(claim.label) was answered 201 but is not in stays_reservations")
                    continue
                }
                if claim.cancelled, stay.status != "cancelled" {
                    violation(
                        claim.vertical, "\(claim.label): its cancellation was answered 200, but it is \(stay.status)")
                }
                continue
            }
            guard let orderID, let order = snapshot.orders[orderID] else {
                violation(claim.vertical, "\(claim.label) was acknowledged but has no order")
                continue
            }
            let payments = snapshot.payments[orderID] ?? []
            if payments.isEmpty {
                violation(claim.vertical, "\(claim.label) has no payment row")
            }
            if claim.paid {
                let settledStatus = ["confirmed", "cancelled", "refunded"].contains(order.status)
                let paymentPaid = payments.contains { $0.status == "paid" }
                if !paymentPaid {
                    violation(
                        claim.vertical,
                        "\(claim.label): the sandbox answered 303 for outcome=paid, but its payments are \(payments.map(\.status))"
                    )
                } else if !settledStatus {
                    violation(
                        claim.vertical,
                        "\(claim.label): the sandbox answered 303 for outcome=paid, but the order is \(order.status)")
                }
                if !paymentPaid || !settledStatus, let revisit = claim.revisit { unsettled.append(revisit) }
            }
            if claim.cancelled, order.status != "cancelled", order.status != "refunded" {
                violation(
                    claim.vertical,
                    "\(claim.label): its cancellation was answered 200, but the order is \(order.status)")
            }
        }

        var figures: [CrashDrillReport.Vertical] = []
        var violations: [String] = []
        for vertical in verticals + problems.keys.filter({ !verticals.contains($0) }).sorted() {
            let found = problems[vertical] ?? []
            violations += found.map { "\(vertical): \($0)" }
            let counts = statuses[vertical] ?? [:]
            let told = acknowledged[vertical] ?? (0, 0, 0)
            let owed = refundsOwed[vertical] ?? (0, 0)
            figures.append(
                CrashDrillReport.Vertical(
                    name: vertical, ordersAcknowledged: told.orders, paymentsAcknowledged: told.paid,
                    cancellationsAcknowledged: told.cancelled, confirmed: counts["confirmed", default: 0],
                    cancelled: counts["cancelled", default: 0], refunded: counts["refunded", default: 0],
                    keptAFee: keptAFee[vertical, default: 0],
                    expired: counts["expired", default: 0],
                    open: counts["awaiting_payment", default: 0] + counts["held", default: 0],
                    refundsOwedPaid: owed.paid, refundsOwedUnpaid: owed.unpaid,
                    unitsChecked: unitsChecked[vertical, default: 0], violations: found.count))
        }
        return (Result(verticals: figures, violations: violations), unsettled)
    }
}
