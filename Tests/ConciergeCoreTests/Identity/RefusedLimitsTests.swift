import Foundation
import Testing

@testable import ConciergeCore

/// The memo of refused limits repeats the database's answer until the slot frees, and no longer.
@Suite struct RefusedLimitsTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func aRefusalCountsDownToTheMomentTheSlotFreesAndThenIsForgotten() throws {
        let memo = RefusedLimits()
        memo.remember(key: "net:a", until: Self.now.addingTimeInterval(90.5), message: "Too many.", now: Self.now)

        let early = try #require(memo.refusal(keys: ["net:a", "all"], at: Self.now.addingTimeInterval(30)))
        #expect(early.code == "rate_limited" && early.category == .tooManyRequests(retryAfterSeconds: 61))
        #expect(early.message.hasPrefix("Too many."))
        #expect(memo.refusal(keys: ["net:b", "all"], at: Self.now) == nil)
        #expect(memo.refusal(keys: ["net:a"], at: Self.now.addingTimeInterval(90.5)) == nil)
    }

    @Test func theLongestStandingRefusalAmongTheKeysAnswers() throws {
        let memo = RefusedLimits()
        memo.remember(key: "net:a", until: Self.now.addingTimeInterval(10), message: "network", now: Self.now)
        memo.remember(key: "all", until: Self.now.addingTimeInterval(300), message: "everyone", now: Self.now)
        let refusal = try #require(memo.refusal(keys: ["net:a", "all"], at: Self.now))
        #expect(refusal.message.hasPrefix("everyone") && refusal.category == .tooManyRequests(retryAfterSeconds: 300))
    }

    @Test func pastItsCapacityTheExpiredRefusalsGoFirst() {
        let memo = RefusedLimits(capacity: 2)
        memo.remember(key: "old", until: Self.now.addingTimeInterval(1), message: "m", now: Self.now)
        memo.remember(key: "live", until: Self.now.addingTimeInterval(100), message: "m", now: Self.now)
        memo.remember(
            key: "new", until: Self.now.addingTimeInterval(100), message: "m", now: Self.now.addingTimeInterval(5))
        #expect(memo.refusal(keys: ["live"], at: Self.now.addingTimeInterval(5)) != nil)
        #expect(memo.refusal(keys: ["new"], at: Self.now.addingTimeInterval(5)) != nil)
    }
}
