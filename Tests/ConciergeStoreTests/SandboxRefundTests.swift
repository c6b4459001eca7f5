import ConciergeCore
import ConciergeStore
import ConciergeTestSupport
import Foundation
import Testing

/// The sandbox refunds like Mollie's test mode: the amount asked (never more than is left),
/// once per idempotency key, and it answers with what it refunded, apart from what the
/// ledger has recorded.
@Suite struct SandboxRefundTests {
    @Test(arguments: TestEngine.all)
    func aPartialRefundRefundsItsAmountOncePerKeyAndNeverMoreThanIsLeft(engine: TestEngine) async throws {
        let fixture = try await OrdersFixture(engine: engine)
        let order = fixture.order(vertical: "stays")
        try await fixture.insert(order)
        let payment = fixture.payment(of: order, provider: "sandbox")
        try await fixture.database.transaction { db in try await SQLPaymentLedger.insert(payment, in: db) }
        let sandbox = SQLSandboxLedger(database: fixture.database)
        let id = payment.providerPaymentID
        let total = order.amountCents

        // Not paid yet: nothing to refund.
        #expect(try await sandbox.refund(id: id, amountCents: 100, idempotencyKey: "early", at: OrdersFixture.now) == 0)
        #expect(try await sandbox.complete(id: id, status: .paid))

        #expect(
            try await sandbox.refund(id: id, amountCents: 1_500, idempotencyKey: "late-cancel", at: OrdersFixture.now)
                == 1_500)
        // The same refund asked again (a retry after a crash) refunds nothing more.
        #expect(
            try await sandbox.refund(id: id, amountCents: 1_500, idempotencyKey: "late-cancel", at: OrdersFixture.now)
                == 1_500)
        #expect(try await sandbox.payment(id: id)?.refundedCents == 1_500)
        // The ledger's figure is the owner's to record; the sandbox does not write it.
        #expect(try await fixture.ledger.payment(provider: "sandbox", providerPaymentID: id)?.refundedCents == 0)

        // A second refund gets only what is left.
        #expect(
            try await sandbox.refund(id: id, amountCents: total, idempotencyKey: "rest", at: OrdersFixture.now)
                == total - 1_500)
        #expect(try await sandbox.payment(id: id)?.refundedCents == total)
        #expect(try await sandbox.refund(id: id, amountCents: 1, idempotencyKey: "more", at: OrdersFixture.now) == 0)
        #expect(try await sandbox.payment(id: id)?.refundedCents == total)
        try await fixture.close()
    }
}
