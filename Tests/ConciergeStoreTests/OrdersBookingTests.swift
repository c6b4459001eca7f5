import ConciergeCore
import ConciergeStore
import ConciergeTestSupport
import Foundation
import Testing

/// A ride booking is one durable commit: the order, the ride, its payment record and the answer
/// its `Idempotency-Key` replays are written together or not at all.
@Suite struct OrdersBookingTests {
    @Test(arguments: TestEngine.all)
    func aBookingIsOneTransactionWithItsOrderPaymentAndAnswer(engine: TestEngine) async throws {
        let fixture = try await OrdersFixture(engine: engine)
        let counting = CountingDatabase(fixture.database)
        let store = SQLBookingStore(database: counting)
        let new = fixture.newBooking(key: "key-1", answer: #"{"quoteReference":"first"}"#)

        #expect(try await store.insertBooking(new) == .inserted)
        // One durable commit: on PostgreSQL a single statement (its own transaction), on SQLite
        // one transaction.
        #expect(counting.transactions + counting.queriesOutsideTransactions == 1)

        let booking = try #require(try await fixture.bookings.booking(reference: new.booking.reference))
        #expect(booking.paymentID == new.payment.providerPaymentID)
        #expect(booking.checkoutURL == new.payment.checkoutURL)
        #expect(booking.paymentRecordID == new.payment.id)
        #expect(booking.paymentStatus == .open)
        #expect(try await fixture.orders.order(id: new.booking.id) == new.order)
        #expect(try await fixture.orders.events(orderID: new.booking.id).map(\.type) == ["created"])
        #expect(
            try await fixture.ledger.payment(provider: "sandbox", providerPaymentID: new.payment.providerPaymentID)
                == new.payment)
        #expect(
            try await fixture.bookings.booking(paymentProvider: "sandbox", paymentID: new.payment.providerPaymentID)
                == booking)
        #expect(
            try await fixture.keys.lookUp(fixture.claim("key-1", scope: BookingService.idempotencyScope))
                == .replay(response: #"{"quoteReference":"first"}"#))
        try await fixture.close()
    }

    @Test(arguments: TestEngine.all)
    func aRepeatOrATakenReferenceLeavesNothingBehind(engine: TestEngine) async throws {
        let fixture = try await OrdersFixture(engine: engine)
        let first = fixture.newBooking(key: "key-1", answer: "first answer")
        #expect(try await fixture.bookings.insertBooking(first) == .inserted)

        // A concurrent repeat of the same request: it gets the first answer, writes nothing.
        let repeated = fixture.newBooking(key: "key-1", answer: "second answer")
        #expect(try await fixture.bookings.insertBooking(repeated) == .keyTaken(.replay(response: "first answer")))
        // The same reference under another key: nothing written, and its key stays free.
        let clash = fixture.newBooking(
            reference: OrderReference(code: first.booking.reference, secret: "s"), key: "key-2")
        #expect(try await fixture.bookings.insertBooking(clash) == .referenceTaken)
        #expect(try await fixture.keys.lookUp(fixture.claim("key-2", scope: BookingService.idempotencyScope)) == nil)
        for table in ["bookings", "orders", "order_lines", "order_events", "payments", "booking_events"] {
            #expect(try await fixture.count(table) == 1, "\(table)")
        }
        #expect(try await fixture.count("idempotency_keys_v2") == 1)
        try await fixture.close()
    }

    @Test(arguments: TestEngine.all)
    func aFailedWriteLeavesNoBookingNoPaymentAndAFreeKey(engine: TestEngine) async throws {
        let fixture = try await OrdersFixture(engine: engine)
        let first = fixture.newBooking(key: nil)
        #expect(try await fixture.bookings.insertBooking(first) == .inserted)
        // The payment row fails last (its provider id is taken): the order, ride and claim
        // written before it in the transaction roll back with it.
        let fresh = fixture.newBooking(key: "key-3")
        let failing = NewBooking(
            booking: fresh.booking, order: fresh.order, event: fresh.event,
            payment: PaymentRecord(
                id: fixture.random.identifier(prefix: "pay"), provider: "sandbox",
                providerPaymentID: first.payment.providerPaymentID, ownerVertical: "rides", orderID: fresh.order.id,
                amountCents: 12_000, currency: "CHF", status: .open, refundedCents: 0, checkoutURL: "x",
                description: "x", redirectURL: "x", metadata: [:], expiresAt: OrdersFixture.now,
                createdAt: OrdersFixture.now),
            idempotency: fresh.idempotency)
        await #expect(throws: (any Error).self) { try await fixture.bookings.insertBooking(failing) }
        #expect(try await fixture.bookings.booking(reference: fresh.booking.reference) == nil)
        #expect(try await fixture.orders.order(id: fresh.order.id) == nil)
        #expect(try await fixture.keys.lookUp(fixture.claim("key-3", scope: BookingService.idempotencyScope)) == nil)
        #expect(try await fixture.count("payments") == 1)
        try await fixture.close()
    }

    /// Rides on the platform's lifecycle: a payment confirms the order and its ride, a
    /// cancellation moves both and owes the refund in the same commit, and a repeat writes nothing.
    @Test(arguments: TestEngine.all)
    func aLifecycleTransitionMovesTheOrderAndTheRideAndOwesTheRefundInTheSameCommit(engine: TestEngine)
        async throws
    {
        let fixture = try await OrdersFixture(engine: engine)
        let lifecycle = SQLOrderLifecycleStore(database: fixture.database, rows: [SQLRidesOrderRows()])
        let new = fixture.newBooking(key: nil)
        #expect(try await fixture.bookings.insertBooking(new) == .inserted)
        let at = OrdersFixture.now.addingTimeInterval(60)
        let confirmed = try await lifecycle.apply(
            OrderTransition(
                orderID: new.order.id, from: [.awaitingPayment], to: .confirmed,
                event: OrderEvent(orderID: new.order.id, at: at, type: "confirmed", actor: "provider", detail: "paid"),
                paymentStatus: .paid, paid: true, onlyIfUnpaid: true))
        #expect(confirmed?.status == .confirmed)
        #expect(confirmed?.verticalState == "confirmed")
        let booking = try await fixture.bookings.booking(reference: new.booking.reference)
        #expect(booking?.state == .confirmed)
        #expect(booking?.paymentStatus == .paid)
        let owed = OwedRefund(
            key: "cancel-\(new.order.id)", orderID: new.order.id, paymentID: new.payment.id, amountCents: 12_000,
            currency: "CHF", reason: "cancelled", createdAt: at)
        let cancel = OrderTransition(
            orderID: new.order.id, from: [.confirmed], to: .cancelled,
            event: OrderEvent(
                orderID: new.order.id, at: at, type: "cancelled", actor: "customer",
                detail: "CHF 120.00 owed back; the inventory goes back on sale"),
            owedRefund: owed)
        let cancelled = try await lifecycle.apply(cancel)
        #expect(cancelled?.status == .cancelled)
        #expect(try await fixture.bookings.booking(reference: new.booking.reference)?.state == .cancelled)
        #expect(try await fixture.orders.order(id: new.order.id)?.state == "cancelled")
        #expect(
            try await fixture.orders.events(orderID: new.order.id).map(\.type) == ["created", "confirmed", "cancelled"])
        // The ride's own log, in rides' words.
        let rideLog = try await fixture.bookings.events(bookingID: new.booking.id)
        #expect(rideLog.map(\.type) == ["created", "confirmed", "cancelled"])
        #expect(rideLog.last?.detail == "CHF 120.00 owed back")
        #expect(try await lifecycle.owedRefunds(orderID: new.order.id).map(\.refund) == [owed])
        // A transition from a state the order is not in changes nothing.
        #expect(try await lifecycle.apply(cancel) == nil)
        #expect(try await fixture.count("refunds_owed") == 1)
        #expect(try await fixture.bookings.events(bookingID: new.booking.id).count == 3)
        try await fixture.close()
    }

    /// A ride dispatch moved on (a chauffeur assigned) is still a confirmed order, but the
    /// lifecycle cannot cancel it from under the chauffeur: the ride's row refuses and nothing
    /// is written. A refund that keeps the status keeps the ride's own state.
    @Test(arguments: TestEngine.all)
    func aRideDispatchMovedOnRefusesTheLifecyclesCancellation(engine: TestEngine) async throws {
        let fixture = try await OrdersFixture(engine: engine)
        let lifecycle = SQLOrderLifecycleStore(database: fixture.database, rows: [SQLRidesOrderRows()])
        let new = fixture.newBooking(key: nil)
        #expect(try await fixture.bookings.insertBooking(new) == .inserted)
        let at = OrdersFixture.now.addingTimeInterval(60)
        func event(_ type: String) -> OrderEvent {
            OrderEvent(orderID: new.order.id, at: at, type: type, actor: "test", detail: "")
        }
        _ = try await lifecycle.apply(
            OrderTransition(
                orderID: new.order.id, from: [.awaitingPayment], to: .confirmed, event: event("confirmed"),
                paymentStatus: .paid, paid: true))
        let assigned = try await fixture.bookings.transition(
            bookingID: new.booking.id, from: [.confirmed], to: .driverAssigned,
            event: BookingEvent(bookingID: new.booking.id, at: at, type: "driver_assigned", actor: "admin", detail: ""),
            driver: Driver(name: "Jo", phone: "+41790000002", vehicle: "E-Class", plate: "ZH 1"))
        #expect(assigned?.state == .driverAssigned)
        #expect(try await lifecycle.order(id: new.order.id)?.status == .confirmed)
        let owed = OwedRefund(
            key: "cancel-\(new.order.id)", orderID: new.order.id, paymentID: new.payment.id, amountCents: 12_000,
            currency: "CHF", reason: "cancelled", createdAt: at)
        #expect(
            try await lifecycle.apply(
                OrderTransition(
                    orderID: new.order.id, from: [.confirmed], to: .cancelled, event: event("cancelled"),
                    owedRefund: owed)) == nil)
        #expect(try await fixture.bookings.booking(reference: new.booking.reference)?.state == .driverAssigned)
        #expect(try await lifecycle.order(id: new.order.id)?.status == .confirmed)
        #expect(try await fixture.count("refunds_owed") == 0)
        let mismatch = OwedRefund(
            key: "mismatch-\(new.order.id)", orderID: new.order.id, paymentID: new.payment.id, amountCents: 100,
            currency: "CHF", reason: "another amount", createdAt: at)
        let kept = try await lifecycle.apply(
            OrderTransition(
                orderID: new.order.id, from: [.confirmed], to: .confirmed, event: event("payment_mismatch"),
                owedRefund: mismatch))
        #expect(kept?.verticalState == "driver_assigned")
        #expect(try await fixture.bookings.booking(reference: new.booking.reference)?.state == .driverAssigned)
        try await fixture.close()
    }
}

/// Counts the transactions and the statements run outside them, to prove a write is one commit.
final class CountingDatabase: SQLDatabase, @unchecked Sendable {
    private let base: any SQLDatabase
    private let lock = NSLock()
    private var transactionCount = 0
    private var looseQueries = 0

    init(_ base: any SQLDatabase) { self.base = base }

    var transactions: Int { lock.withLock { transactionCount } }
    var queriesOutsideTransactions: Int { lock.withLock { looseQueries } }
    var dialect: SQLDialect { base.dialect }

    func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        lock.withLock { looseQueries += 1 }
        return try await base.query(sql, binds)
    }

    func transaction<T: Sendable>(
        lockKeys: [String], _ body: @escaping @Sendable (any SQLExecutor) async throws -> T
    ) async throws -> T {
        lock.withLock { transactionCount += 1 }
        return try await base.transaction(lockKeys: lockKeys, body)
    }

    func close() async throws { try await base.close() }
}
