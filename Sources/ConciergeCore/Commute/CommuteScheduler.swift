import ConciergeModels
public import Foundation

/// Keeps every trip's next occurrence: computes its leave time ahead, re-evaluates it every 5
/// minutes in the last hour before the first notice, and sends "leave in N minutes" at
/// `leaveAt − leadMinutes` and "leave now" at `leaveAt`, once each, plus "your leave time
/// moved" when it moves by 5 minutes or more after a notice. One instance leads (a lease row);
/// the notices' dedupe keys keep a second sender from repeating one anyway. A trip with a Live
/// Activity also gets its state pushed to it (`CommuteScheduler+LiveActivity`). Everything it
/// knows is in the database, so a restart loses nothing.
public struct CommuteScheduler: Sendable {
    public struct Report: Sendable, Equatable {
        public var leader = false
        public var checked = 0
        public var sent = 0
    }

    let service: CommuteService
    let store: any CommuteStore
    let clock: any TimeSource
    let random: any RandomSource
    /// This instance's name in the lease.
    let holder: String
    let batchSize: Int

    public static let leaseName = "commute-scheduler"
    public static let leaseSeconds: TimeInterval = 30
    public static let reevaluateSeconds: TimeInterval = 300
    public static let changeThresholdSeconds: TimeInterval = 300

    public init(
        service: CommuteService, store: any CommuteStore, clock: any TimeSource, random: any RandomSource,
        holder: String, batchSize: Int = 2000
    ) {
        self.service = service
        self.store = store
        self.clock = clock
        self.random = random
        self.holder = holder
        self.batchSize = batchSize
    }

    /// One pass over the due trips; does nothing unless this instance holds the lease.
    @discardableResult
    public func tick() async throws -> Report {
        let now = clock.now
        var report = Report()
        guard
            try await store.acquireLease(
                Self.leaseName, holder: holder, now: now, until: now.addingTimeInterval(Self.leaseSeconds))
        else { return report }
        report.leader = true
        for stored in try await store.dueTrips(now: now, limit: batchSize) {
            report.checked += 1
            do {
                report.sent += try await check(stored, now: now)
            } catch {
                // One trip's trouble (say, no route any more) must not stop the others.
                try await store.setNextCheck(tripID: stored.trip.id, at: now.addingTimeInterval(3600))
            }
        }
        return report
    }

    /// Brings one trip's next occurrence up to date; returns how many notices went out.
    func check(_ stored: StoredTrip, now: Date) async throws -> Int {
        let trip = stored.trip
        var activity = try await store.liveActivity(tripID: trip.id)
        var live = LiveActivityOutcome()
        if let over = activity, over.isOver(at: now) {
            live = try await endLiveActivity(over, stored, now: now)
            activity = nil
        }
        guard trip.notify.enabled, let next = service.calendar.nextOccurrence(of: trip, after: now) else {
            let later = trip.notify.enabled ? now.addingTimeInterval(86400) : nil
            try await store.setNextCheck(tripID: trip.id, at: [later, live.checkAgainAt].compactMap { $0 }.min())
            return live.sent
        }
        let day = next.day.description
        let plan = try await service.plan(trip, arriveBy: next.arriveBy)
        var state =
            try await store.occurrence(tripID: trip.id, day: day)
            ?? OccurrenceState(tripID: trip.id, day: day, arriveBy: next.arriveBy, leaveAt: plan.leaveAt)
        state.arriveBy = next.arriveBy
        state.leaveAt = plan.leaveAt
        let lead = TimeInterval(trip.notify.leadMinutes * 60)
        let soonAt = plan.leaveAt.addingTimeInterval(-lead)
        var sent = live.sent
        if state.nowSentAt == nil && now >= plan.leaveAt {
            if try await send(.leaveNow, stored, day: day, plan: plan, now: now) { sent += 1 }
            state.nowSentAt = now
            state.announcedLeaveAt = plan.leaveAt
        } else if state.soonSentAt == nil && lead > 0 && now >= soonAt {
            if try await send(.leaveSoon, stored, day: day, plan: plan, now: now) { sent += 1 }
            state.soonSentAt = now
            state.announcedLeaveAt = plan.leaveAt
        } else if state.nowSentAt == nil, let announced = state.announcedLeaveAt,
            abs(plan.leaveAt.timeIntervalSince(announced)) >= Self.changeThresholdSeconds
        {
            if try await send(.changed(from: announced), stored, day: day, plan: plan, now: now) { sent += 1 }
            state.announcedLeaveAt = plan.leaveAt
        }
        if let activity {
            let update = try await updateLiveActivity(
                activity, stored, day: day, plan: plan, state: state, lead: lead, now: now)
            sent += update.sent
            live.checkAgainAt = [live.checkAgainAt, update.checkAgainAt].compactMap { $0 }.min()
        }
        try await store.saveOccurrence(state)
        let nextAt = nextCheck(state, soonAt: soonAt, lead: lead, now: now)
        try await store.setNextCheck(tripID: trip.id, at: min(nextAt, live.checkAgainAt ?? nextAt))
        return sent
    }

    /// Ahead of the last hour: once at its start. In it: every 5 minutes and exactly at each
    /// notice's time. After "leave now": at the arrival, which moves on to the next occurrence.
    func nextCheck(_ state: OccurrenceState, soonAt: Date, lead: TimeInterval, now: Date) -> Date {
        if state.nowSentAt != nil { return max(state.arriveBy, now.addingTimeInterval(60)) }
        let firstNotice = state.soonSentAt == nil && lead > 0 ? soonAt : state.leaveAt
        let lastHour = firstNotice.addingTimeInterval(-3600)
        if now < lastHour { return lastHour }
        var candidates = [now.addingTimeInterval(Self.reevaluateSeconds), state.leaveAt]
        if state.soonSentAt == nil && lead > 0 { candidates.append(soonAt) }
        return candidates.filter { $0 > now }.min() ?? now.addingTimeInterval(60)
    }

    enum Kind {
        case leaveSoon
        case leaveNow
        case changed(from: Date)
    }

    /// Writes the notice and its messages (one per channel and recipient) in one transaction.
    private func send(_ kind: Kind, _ stored: StoredTrip, day: String, plan: LeavePlanner.Plan, now: Date)
        async throws -> Bool
    {
        let trip = stored.trip
        let time = Self.localTime(plan.leaveAt, zone: trip.timeZone)
        let (code, key, title, body): (String, String, String, String)
        switch kind {
        case .leaveSoon:
            let minutes = max(1, Int((plan.leaveAt.timeIntervalSince(now) / 60).rounded(.up)))
            (code, key, title, body) = (
                "leave_soon", "soon", "Leave in \(minutes) minutes",
                "Leave at \(time) to reach \(trip.destination.label) by \(trip.arrivalTime)."
            )
        case .leaveNow:
            (code, key, title, body) = (
                "leave_now", "now", "Leave now",
                "Leave now to reach \(trip.destination.label) by \(trip.arrivalTime)."
            )
        case .changed(let from):
            let moved = Int((plan.leaveAt.timeIntervalSince(from) / 60).rounded())
            (code, key, title, body) = (
                "leave_time_changed", "changed-\(Int(plan.leaveAt.timeIntervalSince1970 / 60))",
                "New leave time \(time)",
                "Leave \(abs(moved)) minutes \(moved < 0 ? "earlier" : "later") (\(time)) for \(trip.name)."
            )
        }
        let dedupeKey = "commute:\(trip.id):\(day):\(key)"
        let contacts = try await store.contacts(accountID: stored.accountID, at: now)
        var messages: [OutboxMessage] = []
        if trip.notify.channels.contains("push") {
            // One day's notices of a trip replace each other on the device, and none is
            // delivered once it is stale: "leave soon" after the leave time, any after arrival.
            let staleAt = max(code == "leave_now" ? plan.arriveBy : plan.leaveAt, now.addingTimeInterval(60))
            let data = [
                "tripId": trip.id, "kind": code, "leaveAt": WireDate.string(from: plan.leaveAt),
                PushOptionKeys.collapseID: "\(trip.id):\(day)",
                PushOptionKeys.expiration: String(Int(staleAt.timeIntervalSince1970)),
            ]
            for token in contacts.deviceTokens {
                messages.append(
                    .push(
                        dedupeKey: "\(dedupeKey):push:\(token)", deviceToken: token, title: title, body: body,
                        data: data))
            }
        }
        if trip.notify.channels.contains("email"), let email = contacts.email {
            messages.append(.email(dedupeKey: "\(dedupeKey):email", to: email, subject: title, text: body))
        }
        if trip.notify.channels.contains("sms"), let phone = contacts.phone {
            messages.append(
                OutboxMessage(
                    dedupeKey: "\(dedupeKey):sms", channel: .sms, recipient: phone, subject: "",
                    body: "\(title). \(body)"))
        }
        let id = random.identifier(prefix: "ntf")
        let notification = CommuteNotification(
            id: id, tripId: trip.id, kind: code, title: title, body: body,
            leaveAt: WireDate.string(from: plan.leaveAt),
            channels: Array(Set(messages.map(\.channel.rawValue))).sorted(), sentAt: WireDate.string(from: now))
        return try await store.recordNotice(
            CommuteNotice(
                id: id, accountID: stored.accountID, dedupeKey: dedupeKey, notification: notification,
                messages: messages),
            at: now)
    }

    static func localTime(_ date: Date, zone: String) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TripRules.timeZone(zone) ?? .gmt
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }
}
