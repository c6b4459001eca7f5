import ConciergeCore
import Foundation
import Testing

/// The lifecycle's small rules: what a vertical's state name stands for, and what cancellation
/// terms keep.
@Suite struct OrderLifecycleRulesTests {
    static let deadline = Date(timeIntervalSince1970: 1_800_000_000)
    static let tooLate = ConciergeError(.conflict, code: "cancellation_window_closed", message: "Too late.")

    @Test func everyVerticalsStateNameMapsToOnePlatformStatus() {
        for open in ["pending", "pending_payment", "awaiting_payment"] {
            #expect(OrderStatus(verticalState: open) == .awaitingPayment)
        }
        for confirmed in ["confirmed", "driver_assigned", "en_route", "on_board", "completed", "no_show"] {
            #expect(OrderStatus(verticalState: confirmed) == .confirmed)
        }
        for end in [OrderStatus.cancelled, .expired, .refunded, .held] {
            #expect(OrderStatus(verticalState: end.rawValue) == end)
        }
        #expect(OrderStatus.awaitingPayment.isOpen && OrderStatus.held.isOpen && !OrderStatus.confirmed.isOpen)
    }

    @Test func termsAreFreeUntilTheDeadlineInclusiveAndThenRefuseOrCharge() throws {
        let refusing = CancellationTerms(freeUntil: Self.deadline, afterDeadline: .refuse(Self.tooLate))
        #expect(try refusing.kept(of: 10_000, at: Self.deadline) == 0)
        #expect(throws: Self.tooLate) { try refusing.kept(of: 10_000, at: Self.deadline.addingTimeInterval(1)) }

        let charging = CancellationTerms(freeUntil: Self.deadline, afterDeadline: .charge(cents: 18_000))
        #expect(try charging.kept(of: 37_000, at: Self.deadline) == 0)
        #expect(try charging.kept(of: 37_000, at: Self.deadline.addingTimeInterval(60)) == 18_000)
        // Never more than was paid, never less than nothing.
        #expect(try charging.kept(of: 10_000, at: Self.deadline.addingTimeInterval(60)) == 10_000)
        let odd = CancellationTerms(freeUntil: Self.deadline, afterDeadline: .charge(cents: -5))
        #expect(try odd.kept(of: 10_000, at: Self.deadline.addingTimeInterval(60)) == 0)
    }

    @Test func eachCauseOwesItsOwnKeySoOneCauseNeverRefundsTwice() {
        let keys = [OwedRefund.Cause.cancel, .late, .cancelled, .mismatch].map { $0.key(orderID: "ord_1") }
        #expect(keys == ["cancel-ord_1", "late-ord_1", "cancelled-ord_1", "mismatch-ord_1"])
        #expect(Set(keys).count == keys.count)
    }
}
