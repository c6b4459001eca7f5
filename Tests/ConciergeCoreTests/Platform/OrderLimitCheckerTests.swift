import ConciergeCore
import Foundation
import Testing

/// The platform's per-customer order limits as plain rules over counted orders (docs/limits.md).
@Suite struct OrderLimitCheckerTests {
    /// Orders and rate events in memory, as the SQL store would answer.
    final class MemoryStore: OrderLimitStore, RateEventLog, @unchecked Sendable {
        private let lock = NSLock()
        private var orders: [RecentOrder] = []
        private var events: [String: [Date]] = [:]

        func add(_ order: RecentOrder) { lock.withLock { orders.append(order) } }

        func recentOrders(vertical: String, accountID: String, since: Date) async throws -> [RecentOrder] {
            lock.withLock { orders.filter { $0.createdAt >= since } }
        }

        func withRateEvents<T: Sendable>(
            locking keys: [String], _ body: @escaping @Sendable (any RateEventLog) async throws -> T
        ) async throws -> T { try await body(self) }

        func rateEvents(key: String, since: Date) async throws -> [Date] {
            lock.withLock { (events[key] ?? []).filter { $0 >= since }.sorted() }
        }
        func recordRateEvent(key: String, at date: Date, attemptID: String) async throws {
            lock.withLock { events[key, default: []].append(date) }
        }
        func pruneRateEvents(key: String, before date: Date) async throws {
            lock.withLock { events[key] = events[key]?.filter { $0 >= date } }
        }
    }

    static let zurich = TimeZone(identifier: "Europe/Zurich")!
    /// 2027-01-15 13:50 in Zurich.
    static let start = Date(timeIntervalSince1970: 1_800_017_400)
    static let scope = OrderLimitScope(
        vertical: "events", openStates: ["pending"], openLifetime: 15 * 60, timeZone: zurich)

    func checker(_ limits: OrderLimits = OrderLimits(), store: MemoryStore, clock: ManualTimeSource)
        -> OrderLimitChecker
    {
        OrderLimitChecker(limits: limits, store: store, clock: clock, random: SeededRandomSource(seed: 1))
    }

    @Test func theFourthUnpaidOrderIsRefusedUntilTheFirstExpires() async throws {
        let clock = ManualTimeSource(Self.start)
        let store = MemoryStore()
        for minute in 0..<3 {
            let made = Self.start.addingTimeInterval(Double(minute) * 60)
            store.add(RecentOrder(state: "pending", createdAt: made, paymentExpiresAt: made.addingTimeInterval(900)))
        }
        let limits = checker(store: store, clock: clock)
        let refusal = await #expect(throws: ConciergeError.self) {
            try await limits.check(accountID: "acc_1", scope: Self.scope)
        }
        #expect(refusal?.code == "too_many_unpaid_orders")
        #expect(refusal?.category == .tooManyRequests(retryAfterSeconds: 900))
        #expect(
            refusal?.message
                == "You have 3 unpaid orders. Pay or cancel one of them, or wait until the first expires at 14:05, then try again."
        )
        // A lapsed order counts no more, even before the worker marks it expired.
        clock.advance(by: 900)
        try await limits.check(accountID: "acc_1", scope: Self.scope)
    }

    @Test func paidAndCancelledOrdersCountOnlyTowardsTheHour() async throws {
        let clock = ManualTimeSource(Self.start)
        let store = MemoryStore()
        for minute in 0..<10 {
            store.add(
                RecentOrder(
                    state: minute % 2 == 0 ? "confirmed" : "cancelled",
                    createdAt: Self.start.addingTimeInterval(Double(minute) * 60), paymentExpiresAt: nil))
        }
        clock.advance(by: 600)
        let limits = checker(store: store, clock: clock)
        let refusal = await #expect(throws: ConciergeError.self) {
            try await limits.check(accountID: "acc_1", scope: Self.scope)
        }
        #expect(refusal?.code == "too_many_orders")
        // The oldest of the hour was made at 13:50: a place frees at 14:50, 50 minutes from now.
        #expect(refusal?.category == .tooManyRequests(retryAfterSeconds: 3000))
        #expect(refusal?.message == "You have placed 10 orders in the last hour. Try again after 14:50.")
        // Zero is off.
        try await checker(.off, store: store, clock: clock).check(accountID: "acc_1", scope: Self.scope)
    }

    @Test func aVerticalsCapIsEnforcedWithItsOwnWaitAndSentence() async throws {
        let clock = ManualTimeSource(Self.start)
        let limits = checker(store: MemoryStore(), clock: clock)
        let seats = OrderCap(
            code: "too_many_seats_for_show", limit: 10, current: 8, adding: 3, retryAfterSeconds: 120,
            message: "Choose fewer seats.")
        let refusal = await #expect(throws: ConciergeError.self) {
            try await limits.check(accountID: "acc_1", scope: Self.scope, caps: [seats])
        }
        #expect(
            refusal
                == ConciergeError(.tooManyRequests(retryAfterSeconds: 120), code: seats.code, message: seats.message))
        let fits = OrderCap(
            code: "too_many_seats_for_show", limit: 10, current: 8, adding: 2, retryAfterSeconds: 120, message: "")
        try await limits.check(accountID: "acc_1", scope: Self.scope, caps: [fits])
        let off = OrderCap(code: "x", limit: 0, current: 80, adding: 2, retryAfterSeconds: 1, message: "")
        #expect(!off.isExceeded)
    }

    @Test func ordersTheVerticalKeepsElsewhereCountTowardsTheHour() async throws {
        let clock = ManualTimeSource(Self.start)
        let store = MemoryStore()
        let limits = checker(OrderLimits(maxOpenUnpaid: 3, maxPerHour: 2), store: store, clock: clock)
        store.add(RecentOrder(state: "confirmed", createdAt: Self.start, paymentExpiresAt: nil))
        try await limits.check(accountID: "acc_1", scope: Self.scope)
        let atHotel = [RecentOrder(state: "confirmed", createdAt: Self.start, paymentExpiresAt: nil)]
        await #expect(throws: ConciergeError.self) {
            try await limits.check(accountID: "acc_1", scope: Self.scope, alsoCounting: atHotel)
        }
    }

    @Test func aNetworkGetsItsRequestsPerMinuteAndAnIPv6NetworkIsItsSlash64() async throws {
        let clock = ManualTimeSource(Self.start)
        let store = MemoryStore()
        let limits = checker(OrderLimits(perNetworkPerMinute: 2), store: store, clock: clock)
        try await limits.admit(clientIP: "2001:db8:1:2::1")
        clock.advance(by: 20)
        try await limits.admit(clientIP: "2001:db8:1:2::ffff")
        let refusal = await #expect(throws: ConciergeError.self) {
            try await limits.admit(clientIP: "2001:db8:1:2:abcd::9")
        }
        #expect(refusal?.code == "rate_limited")
        #expect(refusal?.category == .tooManyRequests(retryAfterSeconds: 40))
        #expect(
            refusal?.message == "Many orders were placed from your network in the last minute. Try again in 40 seconds."
        )
        try await limits.admit(clientIP: "2001:db8:1:3::1")
        clock.advance(by: 40)
        try await limits.admit(clientIP: "2001:db8:1:2::1")
    }

    @Test func timesAreSaidInTheZoneRoundedUpToTheMinute() {
        #expect(OrderLimitChecker.clockTime(Self.start.addingTimeInterval(30), in: Self.zurich) == "13:51")
        #expect(OrderLimitChecker.clockTime(Self.start, in: Self.zurich) == "13:50")
        #expect(OrderLimitChecker.seconds(from: Self.start, to: Self.start.addingTimeInterval(0.2)) == 1)
    }
}
