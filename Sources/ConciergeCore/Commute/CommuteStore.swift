public import ConciergeModels
public import Foundation

/// A trip with its owner, as stored.
public struct StoredTrip: Sendable, Equatable {
    public var accountID: String
    public var trip: CommuteTrip

    public init(accountID: String, trip: CommuteTrip) {
        self.accountID = accountID
        self.trip = trip
    }
}

/// The scheduler's memory of one occurrence: what it last computed and what it sent.
public struct OccurrenceState: Sendable, Equatable {
    public var tripID: String
    public var day: String
    public var arriveBy: Date
    public var leaveAt: Date
    /// The leave time the last notice announced; a move of 5 minutes or more from it is news.
    public var announcedLeaveAt: Date?
    public var soonSentAt: Date?
    public var nowSentAt: Date?

    public init(
        tripID: String, day: String, arriveBy: Date, leaveAt: Date, announcedLeaveAt: Date? = nil,
        soonSentAt: Date? = nil, nowSentAt: Date? = nil
    ) {
        self.tripID = tripID
        self.day = day
        self.arriveBy = arriveBy
        self.leaveAt = leaveAt
        self.announcedLeaveAt = announcedLeaveAt
        self.soonSentAt = soonSentAt
        self.nowSentAt = nowSentAt
    }
}

/// One notice, written with its outbox messages in one transaction.
public struct CommuteNotice: Sendable, Equatable {
    public let id: String
    public let accountID: String
    public let dedupeKey: String
    public let notification: CommuteNotification
    public let messages: [OutboxMessage]

    public init(
        id: String, accountID: String, dedupeKey: String, notification: CommuteNotification,
        messages: [OutboxMessage]
    ) {
        self.id = id
        self.accountID = accountID
        self.dedupeKey = dedupeKey
        self.notification = notification
        self.messages = messages
    }
}

/// Where a person can be reached, per channel.
public struct CommuteContacts: Sendable, Equatable {
    public var email: String?
    public var phone: String?
    public var deviceTokens: [String]

    public init(email: String? = nil, phone: String? = nil, deviceTokens: [String] = []) {
        self.email = email
        self.phone = phone
        self.deviceTokens = deviceTokens
    }
}

/// Trips, observations, devices, notices and the scheduler's state.
public protocol CommuteStore: Sendable {
    func insertTrip(_ trip: StoredTrip, nextCheckAt: Date) async throws
    func trip(id: String) async throws -> StoredTrip?
    func trips(accountID: String) async throws -> [StoredTrip]
    /// Replaces the trip and schedules it for a check at `nextCheckAt`.
    func updateTrip(_ trip: StoredTrip, nextCheckAt: Date) async throws
    func deleteTrip(id: String, accountID: String) async throws -> Bool

    func insertObservation(_ observation: CommuteObservation) async throws
    /// Newest first (by departure).
    func observations(tripID: String, limit: Int) async throws -> [CommuteObservation]

    /// Registers the token for the account, in the session that registers it (nil for an ID
    /// token's call); false (nothing written) while another account that is not deleted holds
    /// it in a live session: the one that registered it, or any for a device registered without.
    @discardableResult
    func upsertDevice(accountID: String, sessionID: String?, device: CommuteDevice) async throws -> Bool
    func deleteDevice(accountID: String, token: String) async throws -> Bool
    func contacts(accountID: String, at now: Date) async throws -> CommuteContacts
    func notifications(accountID: String, limit: Int) async throws -> [CommuteNotification]

    /// Takes or renews the scheduler's lease for `holder` until `until`; false when another
    /// holder's lease is still running. One leader among instances sharing the database.
    func acquireLease(_ name: String, holder: String, now: Date, until: Date) async throws -> Bool
    /// Trips with notices on whose check is due, oldest due first.
    func dueTrips(now: Date, limit: Int) async throws -> [StoredTrip]
    func setNextCheck(tripID: String, at: Date?) async throws
    func occurrence(tripID: String, day: String) async throws -> OccurrenceState?
    func saveOccurrence(_ state: OccurrenceState) async throws
    /// Writes the notice and queues its messages at once; false (nothing written) when a notice
    /// with its dedupe key exists, so a repeat sends nothing twice.
    func recordNotice(_ notice: CommuteNotice, at: Date) async throws -> Bool

    /// Registers (or replaces) a trip's Live Activity token; a new one starts unsent and running.
    func upsertLiveActivity(_ registration: LiveActivityRegistration) async throws
    func liveActivity(tripID: String) async throws -> LiveActivityRegistration?
    func deleteLiveActivity(tripID: String) async throws -> Bool
    /// Claims `push` on its activity (see `LiveActivityPush`), writes the notice and queues its
    /// message, in one transaction; false (nothing written) when the claim fails.
    func recordLiveActivityPush(_ push: LiveActivityPush, notice: CommuteNotice, at: Date) async throws -> Bool
}
