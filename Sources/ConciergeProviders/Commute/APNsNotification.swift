import ConciergeCore
import Foundation

/// One Apple Push request's headers and JSON payload, from a push message of the outbox: its
/// title and body, its data (custom keys beside `aps`) and the `apns-…` options in that data
/// (`PushOptionKeys`).
struct APNsNotification: Sendable {
    /// Regular notifications and Live Activity updates alike (Apple's limit, in UTF-8 bytes).
    static let maxPayloadBytes = 4096
    static let maxCollapseIDBytes = 64

    let pushType: String
    let topic: String
    let priority: Int
    let expiration: String?
    let collapseID: String?
    let payload: Data

    /// - Parameter topic: the app's bundle id; Live Activity pushes go to
    ///   `<bundle>.push-type.liveactivity`.
    init(title: String, body: String, data: [String: String], topic: String, now: Date) throws {
        let custom = data.filter { !PushOptionKeys.isOption($0.key) }
        let expiration = data[PushOptionKeys.expiration].flatMap { UInt64($0) }.map(String.init)
        let collapseID = data[PushOptionKeys.collapseID].flatMap {
            $0.utf8.count <= Self.maxCollapseIDBytes ? $0 : nil
        }
        var aps: [String: Any] = [:]
        var root: [String: Any] = [:]
        switch data[PushOptionKeys.pushType] ?? "alert" {
        case "liveactivity":
            // The content state's keys are the app's `ActivityAttributes.ContentState` keys.
            pushType = "liveactivity"
            self.topic = topic + ".push-type.liveactivity"
            let event = data[PushOptionKeys.event] == "end" ? "end" : "update"
            aps["timestamp"] = data[PushOptionKeys.timestamp].flatMap { Int($0) } ?? Int(now.timeIntervalSince1970)
            aps["event"] = event
            aps["content-state"] = try Self.contentState(data[PushOptionKeys.contentState]) ?? (custom as [String: Any])
            if let expiration = expiration.flatMap({ Int($0) }) {
                aps[event == "end" ? "dismissal-date" : "stale-date"] = expiration
            }
            if !title.isEmpty { aps["alert"] = ["title": title, "body": body] }
        case "alert":
            pushType = "alert"
            self.topic = topic
            aps["alert"] = ["title": title, "body": body]
            aps["sound"] = "default"
            // Leaving on time is what the notice is for: shown at once even in a Focus mode
            // (when the app has the entitlement; otherwise iOS treats it as `active`).
            aps["interruption-level"] = "time-sensitive"
            if let collapseID { aps["thread-id"] = collapseID }
            root = custom
        case let other:
            throw ConciergeError(
                .invalidInput, code: "apns_rejected", message: "'\(other)' is not a push type this server sends.")
        }
        root["aps"] = aps
        payload = try JSONSerialization.data(withJSONObject: root, options: [.sortedKeys, .withoutEscapingSlashes])
        guard payload.count <= Self.maxPayloadBytes else {
            throw ConciergeError(
                .invalidInput, code: "apns_payload_too_large",
                message: "The push payload has \(payload.count) bytes; Apple takes at most \(Self.maxPayloadBytes).")
        }
        // Immediate: an alert (or a Live Activity update that lights the screen) at priority 10.
        priority = 10
        self.expiration = expiration
        self.collapseID = collapseID
    }

    /// A typed content state sent as JSON text in the data (which holds strings only).
    static func contentState(_ text: String?) throws -> [String: Any]? {
        guard let text else { return nil }
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            throw ConciergeError(
                .invalidInput, code: "apns_rejected", message: "The Live Activity content state is not a JSON object.")
        }
        return object
    }

    /// The request's headers, in the order apns2 sends them.
    func headers(providerToken: String, apnsID: String?) -> [(String, String)] {
        var headers: [(String, String)] = [
            ("authorization", "bearer \(providerToken)"),
            ("apns-topic", topic),
            ("apns-push-type", pushType),
            ("apns-priority", String(priority)),
        ]
        if let expiration { headers.append(("apns-expiration", expiration)) }
        if let collapseID { headers.append(("apns-collapse-id", collapseID)) }
        if let apnsID { headers.append(("apns-id", apnsID)) }
        headers.append(("content-type", "application/json"))
        return headers
    }
}
