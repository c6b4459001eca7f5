import Testing

@testable import ConciergeBenchmarks

/// The crash drill's database audit finds what it is there to find: it judges a database that
/// breaks each invariant once, next to orders that keep them.
@Suite struct DrillDatabaseAuditTests {
    typealias Audit = DrillDatabaseAudit

    static func order(_ id: String, _ vertical: String, _ reference: String, _ status: String, amount: Int = 37_000)
        -> Audit.OrderRow
    {
        Audit.OrderRow(id: id, vertical: vertical, reference: reference, status: status, amountCents: amount)
    }

    static func add(
        _ order: Audit.OrderRow, state: String, paid: Int?, refunded: Int = 0, to snapshot: inout Audit.Snapshot
    ) {
        snapshot.orders[order.id] = order
        snapshot.orderByReference[order.reference] = order.id
        snapshot.verticalStates[order.id] = state
        snapshot.payments[order.id] = [
            Audit.PaymentRow(
                status: paid == nil ? "open" : "paid", amountCents: paid ?? order.amountCents, refundedCents: refunded)
        ]
    }

    static func stay(_ id: Int, order: String?, status: String, type: Int64 = 2, charged: Int = 0) -> Audit.StayRow {
        Audit.StayRow(
            id: id, orderID: order, status: status, roomType: type, checkIn: "2027-02-01", checkOut: "2027-02-02",
            chargedCents: charged)
    }

    @Test func everyBrokenInvariantIsAViolationOfItsVertical() throws {
        var snapshot = Audit.Snapshot()
        // Kept: a confirmed ride, a stay cancelled after payment with a fee of 18,000, a stay
        // cancelled before payment.
        Self.add(
            Self.order("b1", "rides", "CNC-GOOD", "confirmed", amount: 4_500), state: "driver_assigned", paid: 4_500,
            to: &snapshot)
        Self.add(
            Self.order("o1", "stays", "STY-FEE", "cancelled"), state: "cancelled", paid: 37_000, refunded: 19_000,
            to: &snapshot)
        snapshot.stays[1] = Self.stay(1, order: "o1", status: "cancelled", charged: 18_000)
        snapshot.stayFees["o1"] = 18_000
        Self.add(Self.order("o2", "stays", "STY-UNPAID", "cancelled"), state: "cancelled", paid: nil, to: &snapshot)
        snapshot.stays[2] = Self.stay(2, order: "o2", status: "cancelled")
        // Broken: a stay cancelled after payment and never refunded, with its refund owed unpaid.
        Self.add(Self.order("o3", "stays", "STY-KEPT", "cancelled"), state: "cancelled", paid: 37_000, to: &snapshot)
        snapshot.stays[3] = Self.stay(3, order: "o3", status: "cancelled")
        snapshot.refundsOwed.append((key: "refund:o3", orderID: "o3", amountCents: 37_000, paid: false, attempts: 4))
        // Broken: an events order confirmed in orders, pending in events_bookings.
        Self.add(
            Self.order("e1", "events", "EVT-1", "confirmed", amount: 9_000), state: "pending", paid: 9_000,
            to: &snapshot)
        // Broken: four rooms paid at the hotel on a night of a type with three, and the unit says two.
        for id in 10..<14 { snapshot.stays[id] = Self.stay(id, order: nil, status: "confirmed", type: 1) }
        snapshot.units.append((key: "stays:room1:2027-02-01", capacity: 3, held: 0, sold: 2))
        // Broken: a seat held and sold beyond its capacity.
        snapshot.units.append((key: "events:show1:A-1", capacity: 1, held: 1, sold: 1))
        snapshot.holdHeld["events:show1:A-1"] = 1
        snapshot.holdSold["events:show1:A-1"] = 1

        let claims = [
            ClaimedOrder(
                vertical: "rides", lookup: .reference("CNC-GOOD"), label: "ride CNC-GOOD", paid: true, cancelled: false,
                revisit: nil),
            ClaimedOrder(
                vertical: "rides", lookup: .reference("CNC-LOST"), label: "ride CNC-LOST", paid: true, cancelled: false,
                revisit: nil),
            ClaimedOrder(
                vertical: "stays", lookup: .reference("STY-FEE"), label: "stay 1", paid: true, cancelled: true,
                revisit: nil),
            ClaimedOrder(
                vertical: "stays", lookup: .reference("STY-UNPAID"), label: "stay 2", paid: true, cancelled: true,
                revisit: "/stays/payment/return?session=x"),
        ]
        let (result, unsettled) = Audit(database: .sqlite(path: ":memory:"), claims: claims, settleTimeout: .seconds(1))
            .judge(snapshot)
        let text = result.violations.joined(separator: "\n")

        #expect(text.contains("rides: ride CNC-LOST was acknowledged but has no order"))
        #expect(
            text.contains(
                "stays: stays order STY-KEPT is cancelled; its payments took 37000, gave back 0, so keep 37000, not 0"))
        #expect(text.contains("stays: refund owed refund:o3 (37000 for order STY-KEPT) is unpaid after 4 attempts"))
        #expect(
            text.contains("stays: stay 2: the sandbox answered 303 for outcome=paid, but its payments are [\"open\"]"))
        #expect(text.contains("events: events order EVT-1 is confirmed in orders but pending in the vertical's row"))
        #expect(text.contains("stays: stays:room1:2027-02-01: 4 confirmed reservations, the hotel has 3 rooms"))
        #expect(
            text.contains("stays: unit stays:room1:2027-02-01 counts 0 held, 2 sold, but its holds hold 0 held, 4 sold")
        )
        #expect(text.contains("events: unit events:show1:A-1: 1 held + 1 sold > capacity 1"))
        #expect(!text.contains("CNC-GOOD") && !text.contains("STY-FEE"), "\(text)")
        #expect(result.violations.count == 8, "\(text)")
        #expect(unsettled == ["/stays/payment/return?session=x"])

        let stays = try #require(result.verticals.first { $0.name == "stays" })
        #expect(stays.violations == 5 && stays.cancelled == 3 && stays.keptAFee == 1 && stays.refundsOwedUnpaid == 1)
        #expect(stays.ordersAcknowledged == 2 && stays.paymentsAcknowledged == 2)
        #expect(result.verticals.map(\.name) == ["rides", "events", "stays"])
        #expect(result.verticals.map(\.violations) == [1, 2, 5])
    }
}
