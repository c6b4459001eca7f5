import ConciergeCore
import ConciergeStore
import ConciergeTestSupport
import Foundation
import Testing

/// Provider events are claimed, applied, then marked applied, on both engines.
@Suite struct WebhookEventLogTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// Security review finding 11: an event recorded and then lost to a crash before it was
    /// applied was ignored on every redelivery. Now a claim never marked applied goes stale,
    /// and the provider's retry applies the event.
    @Test(arguments: TestEngine.all)
    func aClaimThatWasNeverAppliedGoesStaleAndTheRetryAppliesTheEvent(engine: TestEngine) async throws {
        let log = SQLWebhookEventLog(database: try await engine.makeDatabase())
        func claim(after seconds: TimeInterval) async throws -> Bool {
            let now = Self.start.addingTimeInterval(seconds)
            return try await log.claim(
                provider: "stripe", eventID: "evt_1", at: now, staleBefore: now.addingTimeInterval(-60))
        }
        #expect(try await claim(after: 0))
        // The server dies here. A concurrent or quick redelivery still waits for the claim.
        #expect(try await !claim(after: 5))
        // Stripe retries minutes later: the claim is stale and the event is applied.
        #expect(try await claim(after: 300))
        try await log.markApplied(provider: "stripe", eventID: "evt_1", at: Self.start.addingTimeInterval(301))
        // Once applied, never again, however late.
        #expect(try await !claim(after: 86_400))
        // A released claim (applying failed) can be claimed at once.
        #expect(try await log.claim(provider: "stripe", eventID: "evt_2", at: Self.start, staleBefore: Self.start))
        try await log.release(provider: "stripe", eventID: "evt_2")
        #expect(try await log.claim(provider: "stripe", eventID: "evt_2", at: Self.start, staleBefore: Self.start))
        // Swept after a week.
        try await log.sweep(receivedBefore: Self.start.addingTimeInterval(7 * 86_400))
        #expect(try await log.claim(provider: "stripe", eventID: "evt_1", at: Self.start, staleBefore: Self.start))
    }
}
