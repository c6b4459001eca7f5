import ConciergeCore
import ConciergeStore
import ConciergeTestSupport
import Foundation
import Testing

/// The payments ledger: every provider's payments with their owner, refunds recorded once, and
/// the dispatcher that hands a provider's word to the owning vertical.
@Suite struct PaymentsLedgerTests {
    @Test(arguments: TestEngine.all)
    func aPaymentIsFoundByProviderAndIdWithItsOwner(engine: TestEngine) async throws {
        let fixture = try await OrdersFixture(engine: engine)
        let order = fixture.order(vertical: "events")
        try await fixture.insert(order)
        let mollie = fixture.payment(of: order, provider: "mollie", providerID: "tr_shared")
        // Provider ids are unique per provider only: Stripe may use the same string.
        let stripe = fixture.payment(of: order, provider: "stripe", providerID: "tr_shared")
        try await fixture.database.transaction { db in
            try await SQLPaymentLedger.insert(mollie, in: db)
            try await SQLPaymentLedger.insert(stripe, in: db)
        }
        let found = try #require(try await fixture.ledger.payment(provider: "mollie", providerPaymentID: "tr_shared"))
        #expect(found == mollie)
        #expect(found.ownerVertical == "events")
        #expect(found.orderID == order.id)
        #expect(found.metadata == ["orderReference": order.reference.code])
        #expect(try await fixture.ledger.payment(provider: "stripe", providerPaymentID: "tr_shared") == stripe)
        #expect(try await fixture.ledger.payment(provider: "mollie", providerPaymentID: "tr_unknown") == nil)
        #expect(try await fixture.ledger.payments(orderID: order.id).count == 2)

        let duplicate = fixture.payment(of: order, provider: "mollie", providerID: "tr_shared")
        await #expect(throws: (any Error).self) {
            try await fixture.database.transaction { db in try await SQLPaymentLedger.insert(duplicate, in: db) }
        }
        try await fixture.ledger.recordStatus(paymentID: mollie.id, status: .paid)
        #expect(try await fixture.ledger.payment(provider: "mollie", providerPaymentID: "tr_shared")?.status == .paid)
        try await fixture.close()
    }

    @Test(arguments: TestEngine.all)
    func aRefundIsRecordedOnceAndNeverExceedsThePayment(engine: TestEngine) async throws {
        let fixture = try await OrdersFixture(engine: engine)
        let order = fixture.order()
        try await fixture.insert(order)
        let payment = fixture.payment(of: order)
        try await fixture.database.transaction { db in try await SQLPaymentLedger.insert(payment, in: db) }
        func refund(_ providerID: String, _ cents: Int) -> RefundRecord {
            RefundRecord(
                id: fixture.random.identifier(prefix: "ref"), paymentID: payment.id, providerRefundID: providerID,
                amountCents: cents, currency: "CHF", reason: "customer cancelled", createdAt: OrdersFixture.now)
        }
        let partial = refund("re_1", 4_000)
        #expect(try await fixture.ledger.recordRefund(partial))
        // The provider's id makes a retried recording a no-op.
        #expect(try await fixture.ledger.recordRefund(refund("re_1", 4_000)) == false)
        #expect(
            try await fixture.ledger.payment(provider: "mollie", providerPaymentID: payment.providerPaymentID)?
                .refundedCents == 4_000)
        let rest = refund("re_2", 6_000)
        #expect(try await fixture.ledger.recordRefund(rest))
        #expect(
            try await fixture.ledger.payment(provider: "mollie", providerPaymentID: payment.providerPaymentID)?
                .refundedCents == 9_000)
        #expect(
            try await fixture.ledger.refunds(paymentID: payment.id).map(\.providerRefundID).sorted() == [
                "re_1", "re_2",
            ])
        try await fixture.close()
    }

    @Test(arguments: TestEngine.all)
    func theDispatcherHandsAPaymentToItsOwningVertical(engine: TestEngine) async throws {
        let fixture = try await OrdersFixture(engine: engine)
        let order = fixture.order(vertical: "events")
        let lost = fixture.order(vertical: "stays")
        try await fixture.insert(order)
        try await fixture.insert(lost)
        let payment = fixture.payment(of: order, provider: "mollie")
        let orphan = fixture.payment(of: lost, provider: "mollie")
        try await fixture.database.transaction { db in
            try await SQLPaymentLedger.insert(payment, in: db)
            try await SQLPaymentLedger.insert(orphan, in: db)
        }
        let events = RecordingOwner(vertical: "events")
        let rides = RecordingOwner(vertical: "rides")
        let dispatcher = PaymentDispatcher(ledger: fixture.ledger, owners: [events, rides])
        let snapshot = PaymentSnapshot(
            id: payment.providerPaymentID, status: .paid, amountCents: 9_000, refundedCents: 0, metadata: [:])

        #expect(try await dispatcher.dispatch(snapshot, provider: "mollie") == payment)
        #expect(events.applied.map(\.0) == [snapshot])
        #expect(events.applied.map(\.1.orderID) == [order.id])
        #expect(rides.applied.isEmpty)
        // Another provider's payment with that id is not ours.
        #expect(try await dispatcher.dispatch(snapshot, provider: "stripe") == nil)
        // A vertical this server does not run: retry later (503 to the provider), never drop.
        let stays = PaymentSnapshot(
            id: orphan.providerPaymentID, status: .paid, amountCents: 9_000, refundedCents: 0, metadata: [:])
        await #expect(throws: ConciergeError.self) { try await dispatcher.dispatch(stays, provider: "mollie") }
        #expect(events.applied.count == 1)
        try await fixture.close()
    }
}

/// An owner that records what it was handed.
private final class RecordingOwner: PaymentOwner, @unchecked Sendable {
    let vertical: String
    private let lock = NSLock()
    private var received: [(PaymentSnapshot, PaymentRecord)] = []

    init(vertical: String) { self.vertical = vertical }

    var applied: [(PaymentSnapshot, PaymentRecord)] { lock.withLock { received } }

    func applyPayment(_ snapshot: PaymentSnapshot, record: PaymentRecord) async throws {
        lock.withLock { received.append((snapshot, record)) }
    }
}
