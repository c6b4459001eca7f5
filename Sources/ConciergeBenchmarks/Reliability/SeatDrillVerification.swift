import Foundation

struct SeatRoundTally {
    var opened = 0
    var paid = 0
    var leftUnpaid = 0
    var paymentsRetried = 0
    var loadErrors = 0
    var firstLoadError: String?
}

/// Every seat order acknowledged so far, and what was found wrong with them after the restarts.
struct SeatDrillState {
    let settleTimeout: Duration
    /// Paid orders by order id, in the order acknowledged.
    private(set) var paid: [String: AcknowledgedSeatOrder] = [:]
    private var paidOrder: [String] = []
    private var verifiedPaid: Set<String> = []
    /// Orders left unpaid on purpose: their holds must lapse.
    private(set) var unpaid: [AcknowledgedSeatOrder] = []
    private(set) var opened = 0
    /// Seats the sales shows' seat maps show `sold` at the last check.
    private(set) var seatsSold = 0
    /// Seats in two paid orders: on the server's listings or in the buyers' ledger.
    private(set) var seatsSoldTwice = 0
    /// Unpaid orders found expired with their seats free again.
    private(set) var lapsedHoldsReleased = 0
    private(set) var violations: [String] = []
    private var reported: Set<String> = []

    init(settleTimeout: Duration) {
        self.settleTimeout = settleTimeout
    }

    mutating func violation(_ text: String) {
        if reported.insert(text).inserted { violations.append(text) }
    }

    mutating func absorb(_ outcome: SeatBuyerOutcome, into tally: inout SeatRoundTally) {
        for order in outcome.paid { acknowledgePaid(order, into: &tally) }
        unpaid += outcome.unpaid
        let opened = outcome.paid.count + outcome.unpaid.count + outcome.unpaidByError
        self.opened += opened
        tally.opened += opened
        tally.leftUnpaid += outcome.unpaid.count
        tally.loadErrors += outcome.loadErrors
        if tally.firstLoadError == nil { tally.firstLoadError = outcome.firstLoadError }
        // The order of a payment in flight at the kill was opened too: it is paid after the restart.
        if outcome.pendingPayment != nil {
            self.opened += 1
            tally.opened += 1
        }
    }

    private mutating func acknowledgePaid(_ order: AcknowledgedSeatOrder, into tally: inout SeatRoundTally) {
        guard paid[order.orderID] == nil else { return }
        paid[order.orderID] = order
        paidOrder.append(order.orderID)
        tally.paid += 1
    }

    /// Pays again, on the restarted server, the checkout whose payment was in flight at the kill,
    /// as the buyer would; a 303 makes it a paid order like any other.
    mutating func retryPayment(
        _ order: AcknowledgedSeatOrder, fixture: SeatDrillFixture, on connection: HTTPConnection,
        into tally: inout SeatRoundTally
    ) async throws {
        tally.paymentsRetried += 1
        let response = try await connection.send(.payInSandbox(order.checkoutPath))
        guard response.status == 303 else {
            violation(
                "round \(order.round): seat order \(order.orderID): paying its checkout again after the restart answered \(response.summary)"
            )
            return
        }
        fixture.ledger.record(show: order.show, seats: order.seats)
        acknowledgePaid(order, into: &tally)
    }

    /// After a restart: every paid order since the last check is confirmed with the seats it was
    /// opened with (polled, asking the provider through the success page); then, on every sales
    /// show, no seat is in two confirmed orders and the seat map's sold seats are exactly the
    /// confirmed orders' seats.
    mutating func verify(fixture: SeatDrillFixture, port: Int) async throws {
        try await HTTPConnection.with(host: "127.0.0.1", port: port) { connection in
            let clock = ContinuousClock()
            let deadline = clock.now + settleTimeout
            for id in paidOrder where !verifiedPaid.contains(id) {
                guard let order = paid[id] else { continue }
                verifiedPaid.insert(id)
                var detail = try await Self.order(id, on: connection)
                while detail?.status != "confirmed", clock.now < deadline {
                    _ = try await connection.send(.get("/events/api/checkout/success?session_id=\(order.sessionID)"))
                    try await Task.sleep(for: .milliseconds(200))
                    detail = try await Self.order(id, on: connection)
                }
                guard let detail, detail.status == "confirmed" else {
                    violation(
                        "seat order \(id) (round \(order.round)): the sandbox answered 303 for outcome=paid, but the order is \(detail?.status ?? "missing")"
                    )
                    continue
                }
                let seats = Set(detail.seats.map(\.id))
                if seats != Set(order.seats) {
                    violation(
                        "seat order \(id) (round \(order.round)) was opened with \(order.seats.sorted()) but holds \(seats.sorted())"
                    )
                }
            }

            var soldEverywhere = 0
            var soldTwice = fixture.ledger.totals.seatsBoughtTwice
            for show in await fixture.sales.sold {
                let (statuses, orders) = try await Self.consistentSales(show: show, on: connection)
                let sold = Set(statuses.filter { $0.value == "sold" }.keys)
                soldEverywhere += sold.count
                var owners: [String: [String]] = [:]
                for order in orders { for seat in order.seats { owners[seat.id, default: []].append(order.id) } }
                for (seat, ids) in owners.sorted(by: { $0.key < $1.key }) where ids.count > 1 {
                    soldTwice += 1
                    violation("show \(show): seat \(seat) is in \(ids.count) confirmed orders: \(ids.sorted())")
                }
                let ofOrders = Set(owners.keys)
                if sold != ofOrders {
                    let unsold = ofOrders.subtracting(sold).sorted()
                    let orphans = sold.subtracting(ofOrders).sorted()
                    violation(
                        "show \(show): the seat map's sold seats are not the confirmed orders' seats; "
                            + "in an order but not sold: \(unsold.prefix(5)) (\(unsold.count)), "
                            + "sold without an order: \(orphans.prefix(5)) (\(orphans.count))")
                }
                for order in paid.values where order.show == show {
                    let missing = order.seats.filter { statuses[$0] != "sold" }
                    if !missing.isEmpty {
                        violation(
                            "seat order \(order.orderID) (round \(order.round)) was paid but its seats \(missing.sorted()) are not sold on the seat map"
                        )
                    }
                }
            }
            seatsSold = soldEverywhere
            seatsSoldTwice = max(seatsSoldTwice, soldTwice)
        }
    }

    /// Once every unpaid hold has lapsed: each of those orders is `expired`, and the hold shows
    /// (where nobody pays) have every seat available again and nothing held or sold. Polled until
    /// `settleTimeout`, since the worker releases holds once a second.
    mutating func verifyLapsedHolds(fixture: SeatDrillFixture, port: Int) async throws {
        let shows = await fixture.holds.sold
        try await HTTPConnection.with(host: "127.0.0.1", port: port) { connection in
            let clock = ContinuousClock()
            let deadline = clock.now + settleTimeout
            // Per show, the seats not available, with their status.
            var taken: [String: [String: String]] = [:]
            var states: [String: String] = [:]
            while true {
                taken = [:]
                for show in shows {
                    let notFree = try await SeatSalesAudit.seatStatuses(show: show, on: connection).filter {
                        $0.value != "available"
                    }
                    if !notFree.isEmpty { taken[show] = notFree }
                }
                states = [:]
                for order in unpaid where states[order.orderID] == nil {
                    states[order.orderID] = try await Self.order(order.orderID, on: connection)?.status ?? "missing"
                }
                let settled = taken.isEmpty && states.values.allSatisfy { $0 == "expired" }
                if settled || clock.now >= deadline { break }
                try await Task.sleep(for: .milliseconds(250))
            }
            for (show, seats) in taken.sorted(by: { $0.key < $1.key }) {
                let some = seats.sorted { $0.key < $1.key }.prefix(5).map { "\($0.key) \($0.value)" }
                violation("hold show \(show): \(seats.count) seats not available after every hold lapsed: \(some)")
            }
            var released = 0
            for order in unpaid {
                let state = states[order.orderID] ?? "missing"
                if state != "expired" {
                    violation(
                        "seat order \(order.orderID) (round \(order.round)) was never paid, its hold lapsed, but the order is \(state)"
                    )
                } else if !order.seats.contains(where: { taken[order.show]?[$0] != nil }) {
                    released += 1
                }
            }
            lapsedHoldsReleased = released
            for show in shows {
                let counts = try await SeatSalesAudit.boxOfficeCounts(show: show, on: connection)
                if counts.reserved != 0 || counts.sold != 0 {
                    violation(
                        "hold show \(show): after every hold lapsed the box office counts \(counts.reserved) held, \(counts.sold) sold"
                    )
                }
            }
        }
    }

    /// What the buyers were told, for the database audit: the paid orders and those left unpaid.
    var claims: [ClaimedOrder] {
        paidOrder.compactMap { paid[$0] }.map { order in
            ClaimedOrder(
                vertical: "events", lookup: .id(order.orderID),
                label: "seat order \(order.orderID) of round \(order.round)",
                paid: true, cancelled: false, revisit: "/events/api/checkout/success?session_id=\(order.sessionID)")
        }
            + unpaid.map { order in
                ClaimedOrder(
                    vertical: "events", lookup: .id(order.orderID),
                    label: "seat order \(order.orderID) of round \(order.round)", paid: false, cancelled: false,
                    revisit: nil)
            }
    }

    /// `GET /events/api/admin/orders/{id}`, nil when there is no such order.
    static func order(_ id: String, on connection: HTTPConnection) async throws -> SeatSalesAudit.ListedOrder? {
        let response = try await connection.send(
            .get("/events/api/admin/orders/\(id)", token: EventsLoadFixture.adminToken))
        if response.status == 404 { return nil }
        try response.expect(200, "admin order \(id)")
        return try response.decode(SeatSalesAudit.ListedOrder.self)
    }

    /// The seat map and the confirmed orders of `show` read between two seat maps with the same
    /// sold seats, so a payment settling meanwhile cannot show up as a mismatch.
    static func consistentSales(show: String, on connection: HTTPConnection) async throws -> (
        statuses: [String: String], orders: [SeatSalesAudit.ListedOrder]
    ) {
        var before = try await SeatSalesAudit.seatStatuses(show: show, on: connection)
        for _ in 0..<5 {
            let orders = try await SeatSalesAudit.paidOrders(show: show, on: connection)
            let after = try await SeatSalesAudit.seatStatuses(show: show, on: connection)
            if after.filter({ $0.value == "sold" }) == before.filter({ $0.value == "sold" }) {
                return (after, orders)
            }
            before = after
        }
        return (before, try await SeatSalesAudit.paidOrders(show: show, on: connection))
    }
}
