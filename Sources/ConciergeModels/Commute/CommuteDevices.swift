/// `POST /commute/devices`: an Apple Push device token of the signed-in person.
public struct CommuteDeviceInput: Codable, Sendable, Equatable {
    /// `ios`.
    public var platform: String
    public var token: String
    /// `sandbox` or `production`: which APNs host the token belongs to.
    public var environment: String

    public init(platform: String = "ios", token: String, environment: String) {
        self.platform = platform
        self.token = token
        self.environment = environment
    }
}

/// A registered device.
public struct CommuteDevice: Codable, Sendable, Equatable {
    public var platform: String
    public var token: String
    public var environment: String
    public var createdAt: String

    public init(platform: String, token: String, environment: String, createdAt: String) {
        self.platform = platform
        self.token = token
        self.environment = environment
        self.createdAt = createdAt
    }
}

/// One notice the scheduler sent.
public struct CommuteNotification: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    public var tripId: String
    /// `leave_soon`, `leave_now` or `leave_time_changed`; for a trip's Live Activity
    /// `live_activity_update` or `live_activity_end`.
    public var kind: String
    public var title: String
    public var body: String
    public var leaveAt: String
    /// The channels it went through (`push`, `email`, `sms`, `liveactivity`); empty when the
    /// person has none.
    public var channels: [String]
    public var sentAt: String

    public init(
        id: String, tripId: String, kind: String, title: String, body: String, leaveAt: String, channels: [String],
        sentAt: String
    ) {
        self.id = id
        self.tripId = tripId
        self.kind = kind
        self.title = title
        self.body = body
        self.leaveAt = leaveAt
        self.channels = channels
        self.sentAt = sentAt
    }
}

/// `GET /commute/notifications`, newest first.
public struct CommuteNotificationList: Codable, Sendable, Equatable {
    public var notifications: [CommuteNotification]

    public init(notifications: [CommuteNotification]) {
        self.notifications = notifications
    }
}
