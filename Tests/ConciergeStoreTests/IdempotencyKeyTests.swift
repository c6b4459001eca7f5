import ConciergeCore
import ConciergeStore
import ConciergeTestSupport
import Foundation
import Testing

/// `Idempotency-Key` claims in the database: one winner, replays, and no key left blocked by a
/// server that died mid-request.
@Suite struct IdempotencyKeyTests {
    let start = Date(timeIntervalSince1970: 1_790_000_000)

    @Test(arguments: TestEngine.all)
    func anUnansweredClaimBlocksRetriesOnlyUntilItIsStale(engine: TestEngine) async throws {
        let database = try await engine.makeDatabase()
        let store = SQLBookingStore(database: database)
        func claim(_ hash: String, at seconds: TimeInterval) async throws -> IdempotencyClaim {
            let now = start.addingTimeInterval(seconds)
            return try await store.claimIdempotencyKey(
                customerID: "cus_1", key: "k1", requestHash: hash, now: now, staleBefore: now.addingTimeInterval(-120))
        }
        #expect(try await claim("h1", at: 0) == .claimed)
        // The first request is still running (or its server died): retries wait.
        #expect(try await claim("h1", at: 60) == .inProgress)
        #expect(try await claim("h1", at: 120) == .inProgress)
        // Past the claim's lifetime the retry takes it over, once.
        #expect(try await claim("h1", at: 121) == .claimed)
        #expect(try await claim("h1", at: 122) == .inProgress)
        try await store.completeIdempotencyKey(customerID: "cus_1", key: "k1", response: "answer")
        // An answered key never goes stale: it replays, and another body is a mismatch.
        #expect(try await claim("h1", at: 10_000) == .replay(response: "answer"))
        #expect(try await claim("h2", at: 10_000) == .mismatch)
        try await database.close()
    }

    @Test(arguments: TestEngine.all)
    func lookingUpAKeyClaimsNothingAndSeesAbandonedClaimsAsFree(engine: TestEngine) async throws {
        let database = try await engine.makeDatabase()
        let store = SQLBookingStore(database: database)
        func lookUp(_ hash: String, at seconds: TimeInterval) async throws -> IdempotencyClaim? {
            try await store.lookUpIdempotencyKey(
                customerID: "cus_1", key: "k1", requestHash: hash,
                staleBefore: start.addingTimeInterval(seconds - 120))
        }
        #expect(try await lookUp("h1", at: 0) == nil)
        #expect(try await lookUp("h1", at: 0) == nil)
        _ = try await store.claimIdempotencyKey(
            customerID: "cus_1", key: "k1", requestHash: "h1", now: start, staleBefore: start.addingTimeInterval(-120))
        #expect(try await lookUp("h1", at: 60) == .inProgress)
        #expect(try await lookUp("h2", at: 60) == .mismatch)
        #expect(try await lookUp("h1", at: 121) == nil)
        try await store.completeIdempotencyKey(customerID: "cus_1", key: "k1", response: "answer")
        #expect(try await lookUp("h1", at: 10_000) == .replay(response: "answer"))
        #expect(try await lookUp("h2", at: 10_000) == .mismatch)
        try await database.close()
    }

    @Test(arguments: TestEngine.all)
    func pruningForgetsOnlyKeysOlderThanTheCutoff(engine: TestEngine) async throws {
        let database = try await engine.makeDatabase()
        let store = SQLBookingStore(database: database)
        for (index, age) in [90_000.0, 80_000, 10].enumerated() {
            let now = start.addingTimeInterval(-age)
            _ = try await store.claimIdempotencyKey(
                customerID: "cus_1", key: "k\(index)", requestHash: "h", now: now, staleBefore: now)
            try await store.completeIdempotencyKey(customerID: "cus_1", key: "k\(index)", response: "r\(index)")
        }
        try await store.pruneIdempotencyKeys(before: start.addingTimeInterval(-86_400))
        let old = try await store.claimIdempotencyKey(
            customerID: "cus_1", key: "k0", requestHash: "h", now: start, staleBefore: start)
        #expect(old == .claimed)
        let kept = try await store.claimIdempotencyKey(
            customerID: "cus_1", key: "k1", requestHash: "h", now: start, staleBefore: start)
        #expect(kept == .replay(response: "r1"))
        try await database.close()
    }
}
