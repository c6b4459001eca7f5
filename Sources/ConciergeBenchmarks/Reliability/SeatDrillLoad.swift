import Foundation

/// A seat order the server opened (`seat-checkout` answered 200).
struct AcknowledgedSeatOrder: Sendable {
    let orderID: String
    let sessionID: String
    let show: String
    let seats: [String]
    /// The sandbox checkout the order was answered with (path and query).
    let checkoutPath: String
    let buyer: Int
    let round: Int
}

/// What one seat buyer saw in one round.
struct SeatBuyerOutcome: Sendable {
    /// Orders opened and paid (the sandbox checkout answered 303 for `outcome=paid`).
    var paid: [AcknowledgedSeatOrder] = []
    /// Orders opened and deliberately left unpaid: their holds must lapse.
    var unpaid: [AcknowledgedSeatOrder] = []
    /// Opened, then the payment got an answer other than 303 (before the kill).
    var unpaidByError = 0
    var loadErrors = 0
    var firstLoadError: String?
    /// The payment in flight at the kill: paid again after the restart, as the buyer would.
    var pendingPayment: AcknowledgedSeatOrder?

    mutating func loadError(_ what: String) {
        loadErrors += 1
        if firstLoadError == nil { firstLoadError = what }
    }
}

/// The seat side of one round: each buyer loops `POST /events/api/seat-checkout` (best
/// available mostly, named front-row seats one time in eight, so buyers race for seats, as in the
/// seats benchmark) and pays in the sandbox checkout, until the server dies. In rounds with
/// `unpaidHolds`, every third buyer holds seats on the hold shows and never pays.
struct SeatDrillLoad: Sendable {
    let port: Int
    let fixture: SeatDrillFixture
    let round: Int
    let unpaidHolds: Bool
    let signal: CrashSignal
    /// Counts paid orders and unpaid holds: the kill waits for the first of each.
    let paymentsAcknowledged: PaymentCount
    let holdsLeftUnpaid: PaymentCount

    func run() async -> [SeatBuyerOutcome] {
        await withTaskGroup(of: SeatBuyerOutcome.self) { group in
            for buyer in fixture.buyerTokens.indices {
                group.addTask { await self.buyer(buyer) }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    private func buyer(_ buyer: Int) async -> SeatBuyerOutcome {
        var outcome = SeatBuyerOutcome()
        let leavesUnpaid = unpaidHolds && SeatDrillFixture.leavesHoldsUnpaid(buyer)
        var iteration = 0
        while !signal.happened {
            do {
                try await HTTPConnection.with(host: "127.0.0.1", port: port) { connection in
                    while !signal.happened {
                        iteration += 1
                        try await once(
                            connection, buyer: buyer, iteration: iteration, leavesUnpaid: leavesUnpaid,
                            outcome: &outcome)
                    }
                }
            } catch {
                if signal.happened { break }
                outcome.loadError("\(error)")
            }
        }
        return outcome
    }

    private func once(
        _ connection: HTTPConnection, buyer: Int, iteration: Int, leavesUnpaid: Bool,
        outcome: inout SeatBuyerOutcome
    ) async throws {
        // A 409 other than a lost race, or a dead connection, throws: the buyer reconnects.
        let (show, opened) = try await EventsLoadScenarios.holdSeats(
            seed: round &* 100_003 &+ buyer &* 7919 &+ iteration, token: fixture.buyerTokens[buyer],
            shows: leavesUnpaid ? fixture.holds : fixture.sales, ledger: fixture.ledger, on: connection)
        guard let path = LoadRequest.path(of: opened.url) else {
            outcome.loadError("seat-checkout answered no checkout URL: \(opened.url)")
            return
        }
        let order = AcknowledgedSeatOrder(
            orderID: opened.orderId, sessionID: opened.sessionId, show: show, seats: opened.seatIds,
            checkoutPath: path, buyer: buyer, round: round)
        if leavesUnpaid {
            outcome.unpaid.append(order)
            holdsLeftUnpaid.add()
            return
        }
        outcome.pendingPayment = order
        let paid = try await connection.send(.payInSandbox(path))
        outcome.pendingPayment = nil
        guard paid.status == 303 else {
            outcome.unpaidByError += 1
            outcome.loadError("sandbox checkout \(opened.orderId): \(paid.summary)")
            return
        }
        outcome.paid.append(order)
        fixture.ledger.record(show: show, seats: order.seats)
        paymentsAcknowledged.add()
    }
}
