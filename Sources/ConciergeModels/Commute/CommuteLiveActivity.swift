/// `PUT /commute/trips/{id}/live-activity`: the push token ActivityKit gave the app for the
/// trip's Live Activity (`Activity.pushTokenUpdates`), hex-encoded. It changes during the
/// activity's life; the app sends each new one and the last one wins.
public struct CommuteLiveActivityInput: Codable, Sendable, Equatable {
    public var token: String
    /// `sandbox` or `production`: which APNs host the token belongs to.
    public var environment: String

    public init(token: String, environment: String) {
        self.token = token
        self.environment = environment
    }
}

/// A trip's registered Live Activity.
public struct CommuteLiveActivity: Codable, Sendable, Equatable {
    public var tripId: String
    public var token: String
    public var environment: String
    public var createdAt: String

    public init(tripId: String, token: String, environment: String, createdAt: String) {
        self.tripId = tripId
        self.token = token
        self.environment = environment
        self.createdAt = createdAt
    }
}

/// What each Live Activity push carries as `aps.content-state`: the app's
/// `ActivityAttributes.ContentState` can be this type, since its keys are the payload's.
/// Instants are ISO 8601 strings (a `Date` in a content state would be decoded as seconds since
/// 2001 by ActivityKit's default decoder).
public struct CommuteLiveActivityState: Codable, Sendable, Hashable {
    /// `planned` (before any notice), `leave_soon`, `leave_now`, and `ended` in the end event.
    public var status: String
    public var tripName: String
    /// The destination's label.
    public var destination: String
    public var leaveAt: String
    /// The arrival the trip is planned for.
    public var arriveBy: String
    /// When the person arrives leaving at `leaveAt`: travel, weather and their own bias, without
    /// the buffer and the on-time margin.
    public var expectedArrival: String
    /// Minutes on the road leaving at `leaveAt` (travel, weather and personal bias).
    public var travelMinutes: Int

    public init(
        status: String, tripName: String, destination: String, leaveAt: String, arriveBy: String,
        expectedArrival: String, travelMinutes: Int
    ) {
        self.status = status
        self.tripName = tripName
        self.destination = destination
        self.leaveAt = leaveAt
        self.arriveBy = arriveBy
        self.expectedArrival = expectedArrival
        self.travelMinutes = travelMinutes
    }
}
