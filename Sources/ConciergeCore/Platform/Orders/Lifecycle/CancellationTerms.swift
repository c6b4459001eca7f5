public import Foundation

/// A vertical's cancellation policy for one confirmed order, evaluated by the lifecycle: free
/// until a deadline, and after it either refused (events, rides) or charged a fee (stays keep
/// the first night).
public struct CancellationTerms: Sendable {
    public enum AfterDeadline: Sendable {
        /// Too late: the error says what the customer can do instead.
        case refuse(ConciergeError)
        /// Allowed, keeping `cents` of what was paid.
        case charge(cents: Int)
    }

    public let freeUntil: Date
    public let afterDeadline: AfterDeadline

    public init(freeUntil: Date, afterDeadline: AfterDeadline) {
        self.freeUntil = freeUntil
        self.afterDeadline = afterDeadline
    }

    /// What the policy keeps of `paidCents` when cancelling at `now`; throws when it refuses.
    public func kept(of paidCents: Int, at now: Date) throws -> Int {
        guard now > freeUntil else { return 0 }
        switch afterDeadline {
        case .refuse(let error): throw error
        case .charge(let cents): return min(max(0, cents), paidCents)
        }
    }
}
