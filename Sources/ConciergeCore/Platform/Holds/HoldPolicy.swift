public import Foundation

/// How long holds last. Each vertical picks its own (a seat map holds for minutes, a hotel
/// reservation form for longer).
public struct HoldPolicy: Sendable, Equatable {
    /// The duration when a request names none.
    public let defaultDuration: TimeInterval
    /// The longest a request or an extension may make one hold last from now.
    public let maximumDuration: TimeInterval

    public init(defaultDuration: TimeInterval = 600, maximumDuration: TimeInterval = 3_600) {
        self.defaultDuration = defaultDuration
        self.maximumDuration = maximumDuration
    }

    /// Checks a requested duration and answers the one to use.
    func duration(_ requested: TimeInterval?) throws -> TimeInterval {
        let duration = requested ?? defaultDuration
        guard duration > 0, duration <= maximumDuration else {
            throw ConciergeError(
                .invalidInput, code: "invalid_hold_duration",
                message:
                    "A hold lasts more than 0 and at most \(Int(maximumDuration)) seconds; \(Int(duration)) was asked for."
            )
        }
        return duration
    }
}
