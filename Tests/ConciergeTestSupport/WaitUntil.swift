/// Yields until `condition` holds — for a test that lines tasks up at a point it can observe
/// (a held statement, a queue's length) before it lets them go. Never sleeps; a condition that
/// still fails after `limit` of yielding is a failure with `what` in it, not a hung test run.
public func waitUntil(
    _ what: @autoclosure () -> String, limit: Duration = .seconds(30), _ condition: () -> Bool
) async throws {
    let deadline = ContinuousClock.now.advanced(by: limit)
    while !condition() {
        guard ContinuousClock.now < deadline else { throw ConditionNeverHeld(what: what()) }
        await Task.yield()
    }
}

/// What `waitUntil` throws when its condition never held.
public struct ConditionNeverHeld: Error, CustomStringConvertible {
    public let what: String
    public var description: String { "still waiting for \(what)" }
}
