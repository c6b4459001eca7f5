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

    @Test(arguments: TestEngine.all)
    func aTransitionMovesTheOrderAndRecordsTheRefundInTheSameCommit(engine: TestEngine) async throws {
        let fixture = try await OrdersFixture(engine: engine)
        let new = fixture.newBooking(key: nil)
        #expect(try await fixture.bookings.insertBooking(new) == .inserted)
        let at = OrdersFixture.now.addingTimeInterval(60)
        let confirmed = try await fixture.bookings.transition(
            bookingID: new.booking.id, from: [.awaitingPayment], to: .confirmed, paymentStatus: .paid,
            event: BookingEvent(
                bookingID: new.booking.id, at: at, type: "confirmed", actor: "provider", detail: "paid"),
            notification: nil, refund: nil)
        #expect(confirmed?.state == .confirmed)
        #expect(confirmed?.paymentStatus == .paid)
        let refund = RefundRecord(
            id: "ref_1", paymentID: new.payment.id, providerRefundID: "sbx_re_cancel", amountCents: 12_000,
            currency: "CHF", reason: "cancelled", createdAt: at)
        let cancelled = try await fixture.bookings.transition(
            bookingID: new.booking.id, from: [.confirmed], to: .cancelled, paymentStatus: nil,
            event: BookingEvent(bookingID: new.booking.id, at: at, type: "cancelled", actor: "customer", detail: ""),
            notification: nil, refund: refund)
        #expect(cancelled?.state == .cancelled)
        #expect(try await fixture.orders.order(id: new.order.id)?.state == "cancelled")
        #expect(
            try await fixture.orders.events(orderID: new.order.id).map(\.type) == ["created", "confirmed", "cancelled"])
        #expect(try await fixture.ledger.refunds(paymentID: new.payment.id) == [refund])
        #expect(try await fixture.ledger.payments(orderID: new.order.id).first?.refundedCents == 12_000)
        // A transition from a state the booking is not in changes nothing.
        let again = try await fixture.bookings.transition(
            bookingID: new.booking.id, from: [.confirmed], to: .cancelled, paymentStatus: nil,
            event: BookingEvent(bookingID: new.booking.id, at: at, type: "cancelled", actor: "customer", detail: ""),
            notification: nil, refund: refund)
        #expect(again == nil)
        #expect(try await fixture.count("refunds") == 1)
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
