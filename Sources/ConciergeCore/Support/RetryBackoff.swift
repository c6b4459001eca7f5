public import Foundation

/// Remembers which items of a background job failed and when each may be tried again: the
/// pause doubles with every failure (30 s, 1 min, 2 min … at most an hour), so one item that
/// always fails costs little and never holds up the others. Kept in memory: a restart tries
/// everything again at once, which is what an operator who fixed the cause wants.
public actor RetryBackoff {
    private var failures: [String: (attempts: Int, retryAt: Date)] = [:]
    private let firstPause: TimeInterval
    private let longestPause: TimeInterval

    public init(firstPause: TimeInterval = 30, longestPause: TimeInterval = 3600) {
        self.firstPause = firstPause
        self.longestPause = longestPause
    }

    public func isDue(_ id: String, now: Date) -> Bool {
        failures[id].map { now >= $0.retryAt } ?? true
    }

    public func failed(_ id: String, now: Date) {
        let attempts = (failures[id]?.attempts ?? 0) + 1
        let pause = min(longestPause, firstPause * pow(2, Double(min(attempts - 1, 20))))
        failures[id] = (attempts, now.addingTimeInterval(pause))
    }

    public func succeeded(_ id: String) {
        failures[id] = nil
    }

    /// How many items are pausing now: a job fetches that many more, so paused items at the
    /// head of its queue do not crowd out the rest.
    public func pausedCount(now: Date) -> Int {
        failures.values.count { now < $0.retryAt }
    }
}
