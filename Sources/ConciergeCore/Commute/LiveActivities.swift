public import Foundation

/// A trip's Live Activity as the scheduler keeps it: the ActivityKit push token and what the
/// last push to it showed (its time is the throttle; its occurrence says when to end it).
public struct LiveActivityRegistration: Sendable, Equatable {
    public var tripID: String
    public var accountID: String
    public var token: String
    public var environment: String
    public var createdAt: Date
    public var sentAt: Date?
    /// The occurrence (local day) and arrival the last push showed.
    public var sentDay: String?
    public var sentArriveBy: Date?
    /// The last content state sent, as its JSON.
    public var sentState: String?
    /// When the end event was queued; nothing more goes to this token.
    public var endedAt: Date?

    public init(
        tripID: String, accountID: String, token: String, environment: String, createdAt: Date, sentAt: Date? = nil,
        sentDay: String? = nil, sentArriveBy: Date? = nil, sentState: String? = nil, endedAt: Date? = nil
    ) {
        self.tripID = tripID
        self.accountID = accountID
        self.token = token
        self.environment = environment
        self.createdAt = createdAt
        self.sentAt = sentAt
        self.sentDay = sentDay
        self.sentArriveBy = sentArriveBy
        self.sentState = sentState
        self.endedAt = endedAt
    }

    /// The occurrence it showed is over and it has not been ended yet.
    func isOver(at now: Date) -> Bool {
        guard endedAt == nil, let sentArriveBy else { return false }
        return now >= sentArriveBy
    }
}

/// One Live Activity push the scheduler wants to make. The store claims it only while the
/// activity is still running and its last push is at least `throttleSeconds` old, so two
/// instances (or two checks close together) never send two within the throttle.
public struct LiveActivityPush: Sendable, Equatable {
    public var tripID: String
    public var token: String
    public var day: String
    public var arriveBy: Date
    public var state: String
    /// The `end` event: the activity is marked ended.
    public var ends: Bool
    public var throttleSeconds: TimeInterval

    public init(
        tripID: String, token: String, day: String, arriveBy: Date, state: String, ends: Bool,
        throttleSeconds: TimeInterval
    ) {
        self.tripID = tripID
        self.token = token
        self.day = day
        self.arriveBy = arriveBy
        self.state = state
        self.ends = ends
        self.throttleSeconds = throttleSeconds
    }
}
