public import Foundation

/// Where the current time comes from. Domain code never reads the wall clock: it asks a `TimeSource`,
/// so tests can move time forward instead of sleeping.
public protocol TimeSource: Sendable {
    var now: Date { get }
}

/// The real clock.
public struct SystemTimeSource: TimeSource {
    public init() {}
    public var now: Date { .now }
}

/// A clock that only moves when told to; for tests and simulations.
public final class ManualTimeSource: TimeSource, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        self.current = start
    }

    public var now: Date {
        lock.withLock { current }
    }

    public func advance(by seconds: TimeInterval) {
        lock.withLock { current = current.addingTimeInterval(seconds) }
    }

    public func set(_ date: Date) {
        lock.withLock { current = date }
    }
}
