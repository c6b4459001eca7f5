public import Foundation

/// Remembers which provider events were applied, so a redelivered event is ignored.
public protocol WebhookEventLog: Sendable {
    /// Records the event; false when it was recorded before.
    func recordOnce(provider: String, eventID: String, at: Date) async throws -> Bool
    /// Forgets the event again (applying it failed, so the provider's retry should run).
    func forget(provider: String, eventID: String) async throws
}
