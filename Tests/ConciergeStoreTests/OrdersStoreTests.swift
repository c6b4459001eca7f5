import ConciergeCore
import ConciergeStore
import ConciergeTestSupport
import Foundation
import Testing

/// Orders in the database: lines and events written with the order, references unique across
/// every vertical, and keys scoped by route.
@Suite struct OrdersStoreTests {
    @Test(arguments: TestEngine.all)
    func anOrderIsWrittenWithItsLinesAndEvents(engine: TestEngine) async throws {
        let fixture = try await OrdersFixture(engine: engine)
        let order = fixture.order()
        #expect(try await fixture.insert(order))

        let stored = try #require(try await fixture.orders.order(reference: order.reference.code))
        #expect(stored == order)
        #expect(stored.lines.map(\.amountCents) == [8_000, 1_000])
        #expect(try await fixture.orders.order(id: order.id) == order)

        let paid = OrderEvent(
            orderID: order.id, at: OrdersFixture.now.addingTimeInterval(60), type: "paid", actor: "provider:mollie",
            detail: "CHF 90.00")
        try await fixture.database.transaction { db in
            try await SQLOrderStore.move(orderID: order.id, to: "paid", event: paid, in: db)
        }
        #expect(try await fixture.orders.order(id: order.id)?.state == "paid")
        #expect(try await fixture.orders.events(orderID: order.id) == [fixture.created(order), paid])
        #expect(try await fixture.orders.order(reference: "VRM-0000000000") == nil)
        try await fixture.close()
    }

    @Test(arguments: TestEngine.all)
    func theOperatorsListIsNewestFirstFilteredAndPaged(engine: TestEngine) async throws {
        let fixture = try await OrdersFixture(engine: engine)
        let ride = fixture.order(vertical: "rides")
        let seats = fixture.order(vertical: "events")
        #expect(try await fixture.insert(ride))
        #expect(try await fixture.insert(seats))
        try await fixture.database.transaction { db in
            try await SQLOrderStore.move(
                orderID: ride.id, to: "paid",
                event: OrderEvent(orderID: ride.id, at: OrdersFixture.now, type: "paid", actor: "test", detail: ""),
                in: db)
        }
        let all = try await fixture.orders.summaries(vertical: nil, state: nil, limit: 10, offset: 0)
        #expect(Set(all.map(\.id)) == [ride.id, seats.id])
        #expect(
            try await fixture.orders.summaries(vertical: "rides", state: nil, limit: 10, offset: 0).map(\.id) == [
                ride.id
            ])
        #expect(
            try await fixture.orders.summaries(vertical: nil, state: "paid", limit: 10, offset: 0).map(\.id) == [
                ride.id
            ])
        #expect(try await fixture.orders.summaries(vertical: nil, state: nil, limit: 1, offset: 1).count == 1)
        #expect(try await fixture.orders.states(vertical: "rides") == ["paid"])
        #expect(try await fixture.orders.states(vertical: nil).contains("paid"))
        try await fixture.close()
    }

    @Test(arguments: TestEngine.all)
    func aTakenReferenceWritesNothingAndIsReportedTaken(engine: TestEngine) async throws {
        let fixture = try await OrdersFixture(engine: engine)
        let first = fixture.order(vertical: "rides")
        #expect(try await fixture.insert(first))
        // Another vertical drawing the same code loses: the space is shared.
        let second = fixture.order(vertical: "events", reference: first.reference)
        #expect(try await fixture.insert(second) == false)
        #expect(try await fixture.orders.order(id: second.id) == nil)
        #expect(try await fixture.count("order_lines") == 2)
        #expect(try await fixture.count("order_events") == 1)
        #expect(try await fixture.orders.isReferenceTaken(first.reference.code))
        #expect(try await fixture.orders.isReferenceTaken("VRM-1234567890") == false)
        try await fixture.close()
    }

    @Test func referencesStartAtTenDigitsAndGrowWhenTheSpaceIsCrowded() {
        let generator = BookingService.references
        #expect((0..<generator.attempts).map(generator.digits(forAttempt:)).prefix(7) == [10, 10, 10, 11, 11, 11, 12])
        #expect(generator.digits(forAttempt: generator.attempts - 1) == OrderReferenceGenerator.maximumDigits)
        let random = SeededRandomSource(seed: 1)
        for attempt in 0..<generator.attempts {
            let reference = generator.candidate(attempt: attempt, random: random)
            let digits = reference.code.dropFirst(4)
            #expect(reference.code.hasPrefix("VRM-"))
            #expect(digits.count == generator.digits(forAttempt: attempt))
            #expect(digits.first != "0")
            // The wire's tripRequestId is the number: it must fit.
            #expect(Int(digits) != nil)
            #expect(reference.secret.count == 32)
        }
        // Deterministic under a seed, different across seeds.
        let again = generator.candidate(attempt: 0, random: SeededRandomSource(seed: 9))
        #expect(generator.candidate(attempt: 0, random: SeededRandomSource(seed: 9)) == again)
        #expect(generator.candidate(attempt: 0, random: SeededRandomSource(seed: 10)) != again)
    }

    @Test(arguments: TestEngine.all)
    func oneKeyOnTwoRoutesGivesTwoIndependentAnswers(engine: TestEngine) async throws {
        let fixture = try await OrdersFixture(engine: engine)
        let rides = fixture.claim("key-1", scope: "rides.app-book")
        let stays = fixture.claim("key-1", scope: "stays.book", hash: "another body")
        #expect(try await fixture.keys.claim(rides) == .claimed)
        // Same key, same account, another route: not a reuse, not a conflict.
        #expect(try await fixture.keys.claim(stays) == .claimed)
        try await fixture.keys.complete(
            scope: "rides.app-book", accountID: OrdersFixture.customerID, key: "key-1", response: "ride")
        try await fixture.keys.complete(
            scope: "stays.book", accountID: OrdersFixture.customerID, key: "key-1", response: "stay")
        #expect(try await fixture.keys.lookUp(rides) == .replay(response: "ride"))
        #expect(try await fixture.keys.lookUp(stays) == .replay(response: "stay"))
        // Within one route a different body under the key is still a reuse.
        #expect(try await fixture.keys.claim(fixture.claim("key-1", scope: "stays.book")) == .mismatch)
        // Releasing in one route leaves the other alone; an answered key is never released.
        try await fixture.keys.release(scope: "rides.app-book", accountID: OrdersFixture.customerID, key: "key-1")
        #expect(try await fixture.keys.lookUp(rides) == .replay(response: "ride"))
        let pending = fixture.claim("key-2", scope: "stays.book")
        #expect(try await fixture.keys.claim(pending) == .claimed)
        try await fixture.keys.release(scope: "stays.book", accountID: OrdersFixture.customerID, key: "key-2")
        #expect(try await fixture.keys.lookUp(pending) == nil)
        try await fixture.close()
    }
}
