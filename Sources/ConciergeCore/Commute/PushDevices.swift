public import Foundation

/// What an Apple Push sender needs to know about device tokens (and Live Activity push tokens):
/// which APNs environment a token was registered for, and how to stop sending to one APNs has
/// rejected for good.
public protocol PushDeviceDirectory: Sendable {
    /// `sandbox` or `production` for an active device; nil when the token is unknown or was
    /// deactivated, so nothing is sent to it.
    func pushEnvironment(ofDevice token: String) async throws -> String?
    /// No further notices go to `token` (APNs answered `Unregistered`, `ExpiredToken` or
    /// `BadDeviceToken`) until its owner registers it again.
    func deactivateDevice(token: String, reason: String, at date: Date) async throws
}

/// Keys of a push message's data that are Apple Push request options, not payload: the
/// scheduler sets them, the APNs sender turns them into headers, and the dev outbox keeps them
/// as they are.
public enum PushOptionKeys {
    /// Notices with one collapse id replace each other on the device (one trip's day).
    public static let collapseID = "apns-collapse-id"
    /// Unix seconds after which APNs stops trying to deliver (a "leave soon" after the leave time
    /// is noise).
    public static let expiration = "apns-expiration"
    /// `alert` (default) or `liveactivity`.
    public static let pushType = "apns-push-type"
    /// For Live Activity pushes: `update` (default) or `end`.
    public static let event = "apns-event"
    /// For Live Activity pushes: the content state as a JSON object (typed values); without
    /// it the data's other keys are the content state, as strings.
    public static let contentState = "apns-content-state"
    /// For Live Activity pushes: Unix seconds of the state it carries (`aps.timestamp`), so a
    /// late retry of an older update cannot replace a newer one on the device; default: when sent.
    public static let timestamp = "apns-timestamp"

    /// True for keys the sender consumes itself.
    public static func isOption(_ key: String) -> Bool { key.hasPrefix("apns-") }
}

extension ConciergeError {
    /// `POST /commute/devices` with a token another live account holds: the holder must remove
    /// it (`DELETE /commute/devices/{token}`), sign out everywhere or delete the account first.
    public static let deviceTokenTaken = ConciergeError(
        .conflict, code: "device_token_taken",
        message:
            "This device is registered to another account. Sign out of that account on the device, or remove the device there, and try again."
    )
}
