public import Foundation

/// Which provider events were applied, so a redelivered event is not fetched and applied
/// again, and concurrent deliveries of one event (to several instances) apply it once.
///
/// A delivery claims the event, applies it, then marks it applied. A claim that was never
/// marked — its server died in between — goes stale and the provider's next retry claims it
/// again (security review finding 11: recording first and applying second lost the event to a
/// crash in between, until the return page or expiry repaired it).
public protocol WebhookEventLog: Sendable {
    /// True when this delivery may apply the event: it was never claimed, or its claim is older
    /// than `staleBefore` and was never marked applied.
    func claim(provider: String, eventID: String, at: Date, staleBefore: Date) async throws -> Bool
    func markApplied(provider: String, eventID: String, at: Date) async throws
    /// Gives up a claim whose applying failed, so the provider's retry runs at once.
    func release(provider: String, eventID: String) async throws
    /// Forgets events received before `date` (providers stop retrying after a few days).
    func sweep(receivedBefore date: Date) async throws
}
