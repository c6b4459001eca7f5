/// Sends a push notification to one device. Embedded default: the dev outbox (channel `push`).
public protocol PushSender: NotificationSender {
    /// `deliveryKey` is the same on every attempt for one outbox message (see `EmailSender`).
    func sendPush(to deviceToken: String, title: String, body: String, data: [String: String], deliveryKey: String?)
        async throws
}
