public import Foundation

/// Free cancellation until `freeHours` before check-in; later, the first night is charged (or
/// kept from a prepayment) and the rest refunded. Once check-in time has passed, a stay cannot
/// be cancelled.
public struct StayCancellationPolicy: Sendable, Equatable {
    public let freeHours: Int

    public init(freeHours: Int) {
        self.freeHours = freeHours
    }

    public var summary: String {
        "Free cancellation until \(freeHours) hours before check-in; after that the first night is charged."
    }

    public enum Outcome: Sendable, Equatable {
        case free
        case firstNightCharged(cents: Int)
    }

    /// The terms the platform's lifecycle evaluates: free until `freeHours` before check-in, the
    /// first night kept after it. Throws once check-in time has passed.
    public func terms(checkInAt: Date, firstNightCents: Int, now: Date) throws(ConciergeError) -> CancellationTerms {
        guard now < checkInAt else {
            throw ConciergeError(
                .conflict, code: "stay_started",
                message: "This stay has started or is over, so it cannot be cancelled. Contact the hotel.")
        }
        return CancellationTerms(
            freeUntil: checkInAt.addingTimeInterval(-Double(freeHours) * 3600),
            afterDeadline: .charge(cents: firstNightCents))
    }

    /// What cancelling at `now` would cost: the terms as the lifecycle evaluates them.
    public func outcome(checkInAt: Date, firstNightCents: Int, now: Date) throws(ConciergeError) -> Outcome {
        let terms = try terms(checkInAt: checkInAt, firstNightCents: firstNightCents, now: now)
        return now <= terms.freeUntil ? .free : .firstNightCharged(cents: firstNightCents)
    }
}
