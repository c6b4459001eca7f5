import ConciergeCore
import ConciergeStore
import ConciergeTestSupport
import Foundation
import Testing

/// Holds on both engines: all or nothing, expiry that frees units once, extend, release, sell,
/// the late-payment policy, and units with a capacity above one (room-nights).
@Suite struct HoldsStoreTests {
    struct Fixture {
        let database: any SQLDatabase
        let store: SQLHoldStore
        let clock: ManualTimeSource
        let holds: HoldService
        let latePayments: LatePaymentPolicy

        init(_ engine: TestEngine) async throws {
            database = try await engine.makeDatabase()
            store = SQLHoldStore(database: database)
            clock = ManualTimeSource()
            holds = HoldService(
                store: store, policy: HoldPolicy(defaultDuration: 600, maximumDuration: 3_600), clock: clock,
                random: SeededRandomSource(seed: 7))
            latePayments = LatePaymentPolicy(store: store, clock: clock)
        }

        func unit(_ key: String) async throws -> InventoryUnit? {
            try await store.units(keys: [key]).first
        }
    }

    static let seatA = "events:show_1:seat_A1"
    static let seatB = "events:show_1:seat_A2"

    @Test(arguments: TestEngine.all)
    func aHoldTakesEveryUnitOrNone(engine: TestEngine) async throws {
        let f = try await Fixture(engine)
        try await f.store.setCapacity([Self.seatA: 1, Self.seatB: 1])
        let first = try await f.holds.hold(HoldRequest(ownerID: "acc_1", items: [HoldItem(unitKey: Self.seatB)]))
        #expect(first.state == .held)
        #expect(first.expiresAt == f.clock.now.addingTimeInterval(600))

        // A2 is gone, so the hold of A1 and A2 takes neither: A1 stays free.
        let error = await #expect(throws: ConciergeError.self) {
            try await f.holds.hold(
                HoldRequest(ownerID: "acc_2", items: [HoldItem(unitKey: Self.seatA), HoldItem(unitKey: Self.seatB)]))
        }
        #expect(error?.code == "hold_unavailable")
        #expect(error?.category == .conflict)
        #expect(error?.message.contains(Self.seatB) == true)
        #expect(error?.message.contains(Self.seatA) == false)
        #expect(try await f.unit(Self.seatA) == InventoryUnit(key: Self.seatA, capacity: 1, held: 0, sold: 0))
        #expect(try await f.unit(Self.seatB) == InventoryUnit(key: Self.seatB, capacity: 1, held: 1, sold: 0))

        // An unknown unit is unavailable too, and takes nothing.
        let unknown = await #expect(throws: ConciergeError.self) {
            try await f.holds.hold(
                HoldRequest(ownerID: "acc_2", items: [HoldItem(unitKey: Self.seatA), HoldItem(unitKey: "events:nope")]))
        }
        #expect(unknown?.code == "hold_unavailable")
        #expect(try await f.unit(Self.seatA)?.held == 0)
        try await f.database.close()
    }

    @Test(arguments: TestEngine.all)
    func expiryFreesTheUnitsExactlyOnce(engine: TestEngine) async throws {
        let f = try await Fixture(engine)
        try await f.store.setCapacity([Self.seatA: 1])
        let hold = try await f.holds.hold(
            HoldRequest(ownerID: "acc_1", items: [HoldItem(unitKey: Self.seatA)], duration: 120))
        #expect(try await f.holds.expireLapsedHolds().isEmpty)

        f.clock.advance(by: 120)
        // Two workers at once: one expires it, the other finds nothing to do.
        async let one = f.store.expireLapsedHolds(now: f.clock.now, limit: 10)
        async let other = f.store.expireLapsedHolds(now: f.clock.now, limit: 10)
        let expired = try await one + other
        #expect(expired.map(\.id) == [hold.id])
        #expect(expired.first?.state == .expired)
        #expect(try await f.unit(Self.seatA)?.held == 0)
        #expect(try await f.holds.expireLapsedHolds().isEmpty)
        #expect(try await f.unit(Self.seatA)?.held == 0)

        // The freed seat can be held again; the lapsed hold cannot be sold or extended.
        _ = try await f.holds.hold(HoldRequest(ownerID: "acc_2", items: [HoldItem(unitKey: Self.seatA)]))
        let sell = await #expect(throws: ConciergeError.self) { try await f.holds.sell(id: hold.id, orderID: "ord_1") }
        #expect(sell?.code == "hold_not_active")
        let extend = await #expect(throws: ConciergeError.self) {
            try await f.holds.extend(id: hold.id, ownedBy: "acc_1")
        }
        #expect(extend?.code == "hold_not_active")
        try await f.database.close()
    }

    @Test(arguments: TestEngine.all)
    func extendReleaseAndSell(engine: TestEngine) async throws {
        let f = try await Fixture(engine)
        try await f.store.setCapacity([Self.seatA: 1, Self.seatB: 1])
        let hold = try await f.holds.hold(HoldRequest(ownerID: "acc_1", items: [HoldItem(unitKey: Self.seatA)]))
        f.clock.advance(by: 500)
        let extended = try await f.holds.extend(id: hold.id, ownedBy: "acc_1", by: 900)
        #expect(extended.expiresAt == f.clock.now.addingTimeInterval(900))
        // Past the first expiry, the extension keeps it.
        f.clock.advance(by: 600)
        #expect(try await f.holds.expireLapsedHolds().isEmpty)
        let tooLong = await #expect(throws: ConciergeError.self) {
            try await f.holds.extend(id: hold.id, ownedBy: "acc_1", by: 7_200)
        }
        #expect(tooLong?.code == "invalid_hold_duration")

        let sold = try await f.holds.sell(id: hold.id, orderID: "ord_1")
        #expect(sold.state == .sold)
        #expect(sold.orderID == "ord_1")
        #expect(try await f.unit(Self.seatA) == InventoryUnit(key: Self.seatA, capacity: 1, held: 0, sold: 1))
        // A repeated webhook sells nothing twice; another order cannot buy it.
        #expect(try await f.holds.sell(id: hold.id, orderID: "ord_1") == sold)
        let other = await #expect(throws: ConciergeError.self) { try await f.holds.sell(id: hold.id, orderID: "ord_2") }
        #expect(other?.code == "hold_not_active")
        #expect(try await f.unit(Self.seatA)?.sold == 1)
        // A sold hold is not released, and never lapses.
        #expect(try await f.holds.release(id: hold.id, ownedBy: "acc_1").state == .sold)
        f.clock.advance(by: 10_000)
        #expect(try await f.holds.expireLapsedHolds().isEmpty)

        let second = try await f.holds.hold(HoldRequest(ownerID: "acc_1", items: [HoldItem(unitKey: Self.seatB)]))
        // Nobody but its owner extends or releases a hold: to anyone else it does not exist.
        for attempt in [
            { try await f.holds.release(id: second.id, ownedBy: "acc_2") },
            { try await f.holds.extend(id: second.id, ownedBy: "acc_2") },
        ] as [@Sendable () async throws -> Hold] {
            let refused = await #expect(throws: ConciergeError.self) { try await attempt() }
            #expect(refused?.code == "hold_not_found")
        }
        #expect(try await f.unit(Self.seatB)?.held == 1)
        #expect(try await f.holds.release(id: second.id, ownedBy: "acc_1").state == .released)
        #expect(try await f.unit(Self.seatB)?.held == 0)
        // Released twice gives back once.
        #expect(try await f.holds.release(id: second.id, ownedBy: "acc_1").state == .released)
        #expect(try await f.unit(Self.seatB)?.held == 0)
        let missing = await #expect(throws: ConciergeError.self) {
            try await f.holds.release(id: "hld_missing", ownedBy: "acc_1")
        }
        #expect(missing?.code == "hold_not_found")
        try await f.database.close()
    }

    @Test(arguments: TestEngine.all)
    func aLatePaymentIsHonouredWhileTheUnitsAreFreeAndRefundedOnceTheyAreNot(engine: TestEngine) async throws {
        let f = try await Fixture(engine)
        try await f.store.setCapacity([Self.seatA: 1, Self.seatB: 1])

        // Paid in time: sold.
        let onTime = try await f.holds.hold(HoldRequest(ownerID: "acc_1", items: [HoldItem(unitKey: Self.seatA)]))
        #expect(try await f.latePayments.paymentArrived(holdID: onTime.id, orderID: "ord_1").isSold(late: false))

        // Lapsed, expired, nobody took the seat since: honoured.
        let lapsed = try await f.holds.hold(HoldRequest(ownerID: "acc_2", items: [HoldItem(unitKey: Self.seatB)]))
        f.clock.advance(by: 601)
        #expect(try await f.holds.expireLapsedHolds().map(\.id) == [lapsed.id])
        #expect(try await f.latePayments.paymentArrived(holdID: lapsed.id, orderID: "ord_2").isSold(late: true))
        #expect(try await f.unit(Self.seatB) == InventoryUnit(key: Self.seatB, capacity: 1, held: 0, sold: 1))
        // The same webhook again: the same sale, not a refund and not a second seat.
        #expect(try await f.latePayments.paymentArrived(holdID: lapsed.id, orderID: "ord_2").isSold(late: false))
        #expect(try await f.unit(Self.seatB)?.sold == 1)

        // Lapsed and the seat went to someone else: refund, naming the seat; nothing changes.
        try await f.store.setCapacity(["events:show_1:seat_A3": 1])
        let lost = try await f.holds.hold(
            HoldRequest(ownerID: "acc_3", items: [HoldItem(unitKey: "events:show_1:seat_A3")]))
        f.clock.advance(by: 601)
        try await f.holds.expireLapsedHolds()
        let taker = try await f.holds.hold(
            HoldRequest(ownerID: "acc_4", items: [HoldItem(unitKey: "events:show_1:seat_A3")]))
        #expect(
            try await f.latePayments.paymentArrived(holdID: lost.id, orderID: "ord_3")
                == .refund(unavailableUnits: ["events:show_1:seat_A3"]))
        #expect(try await f.holds.hold(id: lost.id).state == .expired)
        #expect(
            try await f.unit("events:show_1:seat_A3")
                == InventoryUnit(
                    key: "events:show_1:seat_A3", capacity: 1, held: 1, sold: 0))

        // Lapsed but not yet expired by the job: its units are still its own, so it is sold.
        try await f.store.setCapacity(["events:show_1:seat_A4": 1])
        let slow = try await f.holds.hold(
            HoldRequest(ownerID: "acc_5", items: [HoldItem(unitKey: "events:show_1:seat_A4")]))
        f.clock.advance(by: 601)
        #expect(try await f.latePayments.paymentArrived(holdID: slow.id, orderID: "ord_5").isSold(late: true))
        #expect(
            try await f.unit("events:show_1:seat_A4")
                == InventoryUnit(
                    key: "events:show_1:seat_A4", capacity: 1, held: 0, sold: 1))
        // The sold hold is not expired afterwards; only the other customer's lapsed one is.
        #expect(try await f.holds.expireLapsedHolds().map(\.id) == [taker.id])
        try await f.database.close()
    }

    @Test(arguments: TestEngine.all)
    func roomNightsHoldSeveralOfAUnitAndNeverOverbook(engine: TestEngine) async throws {
        let f = try await Fixture(engine)
        let nights = ["stays:hotel_9:double:2026-12-01", "stays:hotel_9:double:2026-12-02"]
        try await f.store.setCapacity([nights[0]: 3, nights[1]: 2])
        // Two rooms for two nights, with the first night named twice (quantities add up).
        let family = try await f.holds.hold(
            HoldRequest(
                ownerID: "acc_1",
                items: [
                    HoldItem(unitKey: nights[1], quantity: 2), HoldItem(unitKey: nights[0]),
                    HoldItem(unitKey: nights[0]),
                ]))
        #expect(family.items == [HoldItem(unitKey: nights[0], quantity: 2), HoldItem(unitKey: nights[1], quantity: 2)])
        // One room is left on the first night only: a two-night stay is refused as a whole.
        let refused = await #expect(throws: ConciergeError.self) {
            try await f.holds.hold(
                HoldRequest(ownerID: "acc_2", items: nights.map { HoldItem(unitKey: $0) }))
        }
        #expect(refused?.message.contains(nights[1]) == true)
        let oneNight = try await f.holds.hold(HoldRequest(ownerID: "acc_2", items: [HoldItem(unitKey: nights[0])]))
        #expect(try await f.store.units(keys: nights).map(\.free) == [0, 0])

        // Capacity cannot drop below what is taken; it can grow.
        let shrink = await #expect(throws: ConciergeError.self) { try await f.store.setCapacity([nights[0]: 2]) }
        #expect(shrink?.code == "capacity_below_taken")
        try await f.store.setCapacity([nights[1]: 3])
        #expect(try await f.store.units(keys: nights).map(\.free) == [0, 1])

        _ = try await f.holds.sell(id: family.id, orderID: "ord_1")
        try await f.holds.release(id: oneNight.id, ownedBy: "acc_2")
        #expect(
            try await f.store.units(keys: nights) == [
                InventoryUnit(key: nights[0], capacity: 3, held: 0, sold: 2),
                InventoryUnit(key: nights[1], capacity: 3, held: 0, sold: 2),
            ])
        let bad = await #expect(throws: ConciergeError.self) {
            try await f.holds.hold(HoldRequest(ownerID: "acc_3", items: [HoldItem(unitKey: nights[0], quantity: 0)]))
        }
        #expect(bad?.code == "invalid_hold_item")
        try await f.database.close()
    }
}

extension LatePaymentPolicy.Decision {
    func isSold(late expected: Bool) -> Bool {
        if case .sold(let hold, let late) = self { return hold.state == .sold && late == expected }
        return false
    }
}
