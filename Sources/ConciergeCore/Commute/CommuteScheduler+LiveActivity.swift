import ConciergeModels
public import Foundation

/// Live Activity updates: in a trip's last hour (from an hour before its first notice to its
/// arrival) each check sends the trip's state to its registered activity as a `liveactivity`
/// push (`event: update`), at most one per 30 seconds per activity, so each re-plan and each
/// notice shows on the Lock Screen; once the occurrence it showed is over, `event: end`. Each
/// push is claimed on the activity's row in the transaction that writes its notice and outbox
/// message (`CommuteStore.recordLiveActivityPush`), so two instances never send one twice.
extension CommuteScheduler {
    public static let liveActivityThrottleSeconds: TimeInterval = 30
    /// An update is stale once two re-plans have been missed (after "leave now": at the arrival).
    public static let liveActivityStaleSeconds: TimeInterval = 600
    /// How long an ended activity stays on the Lock Screen.
    public static let liveActivityDismissalSeconds: TimeInterval = 900

    /// What one check did to a trip's activity.
    struct LiveActivityOutcome {
        var sent = 0
        /// A push was held back by the throttle: check again then.
        var checkAgainAt: Date?
    }

    /// Ends the activity when the occurrence its last push showed is over.
    func endLiveActivity(_ activity: LiveActivityRegistration, _ stored: StoredTrip, now: Date) async throws
        -> LiveActivityOutcome
    {
        guard activity.isOver(at: now), let day = activity.sentDay, let arriveBy = activity.sentArriveBy else {
            return LiveActivityOutcome()
        }
        if let wait = throttled(activity, now: now) { return LiveActivityOutcome(checkAgainAt: wait) }
        let trip = stored.trip
        var content =
            activity.sentState.flatMap { try? JSONDecoder().decode(CommuteLiveActivityState.self, from: Data($0.utf8)) }
            ?? Self.liveState("ended", trip: trip, leaveAt: arriveBy, arriveBy: arriveBy, travelMinutes: 0)
        content.status = "ended"
        let sent = try await pushLiveActivity(
            activity, stored, day: day, arriveBy: arriveBy, content: content, ends: true,
            expiresAt: max(now, arriveBy).addingTimeInterval(Self.liveActivityDismissalSeconds),
            title: "Trip over", body: "The Live Activity of \(trip.name) has ended.", now: now)
        return LiveActivityOutcome(sent: sent ? 1 : 0)
    }

    /// Sends the occurrence's current state when the check falls in its last hour.
    func updateLiveActivity(
        _ activity: LiveActivityRegistration, _ stored: StoredTrip, day: String, plan: LeavePlanner.Plan,
        state: OccurrenceState, lead: TimeInterval, now: Date
    ) async throws -> LiveActivityOutcome {
        let windowStart = plan.leaveAt.addingTimeInterval(-lead - 3600)
        guard activity.endedAt == nil, now >= windowStart, now < plan.arriveBy else { return LiveActivityOutcome() }
        let trip = stored.trip
        let status = state.nowSentAt != nil ? "leave_now" : state.soonSentAt != nil ? "leave_soon" : "planned"
        let minutes = plan.travelMinutes + plan.weatherMinutes + Int(plan.bias.minutes.rounded())
        let content = Self.liveState(
            status, trip: trip, leaveAt: plan.leaveAt, arriveBy: plan.arriveBy, travelMinutes: minutes)
        if let wait = throttled(activity, now: now) {
            // Held back only when it would show something new.
            let same = activity.sentDay == day && activity.sentState == (try? Self.json(content))
            return LiveActivityOutcome(checkAgainAt: same ? nil : wait)
        }
        let staleAt =
            status == "leave_now"
            ? max(plan.arriveBy, now.addingTimeInterval(60)) : now.addingTimeInterval(Self.liveActivityStaleSeconds)
        let time = Self.localTime(plan.leaveAt, zone: trip.timeZone)
        let sent = try await pushLiveActivity(
            activity, stored, day: day, arriveBy: plan.arriveBy, content: content, ends: false, expiresAt: staleAt,
            title: "Leave at \(time)",
            body:
                "\(trip.name): \(trip.destination.label) by \(trip.arrivalTime), about \(minutes) minutes on the road.",
            now: now)
        return LiveActivityOutcome(sent: sent ? 1 : 0)
    }

    /// When the throttle lets the next push go, if that is still ahead.
    func throttled(_ activity: LiveActivityRegistration, now: Date) -> Date? {
        guard let sentAt = activity.sentAt else { return nil }
        let next = sentAt.addingTimeInterval(Self.liveActivityThrottleSeconds)
        return now < next ? next : nil
    }

    /// Claims the push on the activity and writes its notice (channel `liveactivity`) and its
    /// outbox message. No alert in the push: the leave notices are the alerts.
    private func pushLiveActivity(
        _ activity: LiveActivityRegistration, _ stored: StoredTrip, day: String, arriveBy: Date,
        content: CommuteLiveActivityState, ends: Bool, expiresAt: Date, title: String, body: String, now: Date
    ) async throws -> Bool {
        let trip = stored.trip
        let state = try Self.json(content)
        let seconds = Int(now.timeIntervalSince1970)
        let dedupeKey =
            "commute:\(trip.id):\(day):liveactivity:"
            + (ends ? "end:\(activity.token.prefix(16))" : String(seconds))
        let data = [
            PushOptionKeys.pushType: "liveactivity", PushOptionKeys.event: ends ? "end" : "update",
            PushOptionKeys.contentState: state, PushOptionKeys.timestamp: String(seconds),
            PushOptionKeys.expiration: String(Int(expiresAt.timeIntervalSince1970)),
        ]
        let id = random.identifier(prefix: "ntf")
        let notification = CommuteNotification(
            id: id, tripId: trip.id, kind: ends ? "live_activity_end" : "live_activity_update", title: title,
            body: body, leaveAt: content.leaveAt, channels: ["liveactivity"], sentAt: WireDate.string(from: now))
        return try await store.recordLiveActivityPush(
            LiveActivityPush(
                tripID: trip.id, token: activity.token, day: day, arriveBy: arriveBy, state: state, ends: ends,
                throttleSeconds: Self.liveActivityThrottleSeconds),
            notice: CommuteNotice(
                id: id, accountID: stored.accountID, dedupeKey: dedupeKey, notification: notification,
                messages: [
                    .push(dedupeKey: "\(dedupeKey):push", deviceToken: activity.token, title: "", body: "", data: data)
                ]),
            at: now)
    }

    static func liveState(
        _ status: String, trip: CommuteTrip, leaveAt: Date, arriveBy: Date, travelMinutes: Int
    ) -> CommuteLiveActivityState {
        CommuteLiveActivityState(
            status: status, tripName: trip.name, destination: trip.destination.label,
            leaveAt: WireDate.string(from: leaveAt), arriveBy: WireDate.string(from: arriveBy),
            expectedArrival: WireDate.string(from: leaveAt.addingTimeInterval(TimeInterval(travelMinutes * 60))),
            travelMinutes: travelMinutes)
    }

    static func json(_ state: CommuteLiveActivityState) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(state), as: UTF8.self)
    }
}
