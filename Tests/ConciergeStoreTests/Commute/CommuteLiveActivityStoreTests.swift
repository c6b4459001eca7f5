import ConciergeCore
import ConciergeModels
import ConciergeStore
import ConciergeTestSupport
import Foundation
import Testing

/// Live Activity pushes over the SQL store on both engines: the claim lets one push through per
/// 30 seconds whoever tries, nothing after the end, and two scheduler instances ticking
/// together send one end and never two updates within the throttle.
@Suite struct CommuteLiveActivityStoreTests {
    static let start = CommuteSchedulerStoreTests.start
    static let token = String(repeating: "80c1d2e3f4a5b6c7", count: 10)

    static func push(ends: Bool = false, token: String = token) -> LiveActivityPush {
        LiveActivityPush(
            tripID: "trp_1", token: token, day: "2027-01-15", arriveBy: start.addingTimeInterval(3600),
            state: #"{"status":"planned"}"#, ends: ends, throttleSeconds: 30)
    }

    static func notice(_ key: String) -> CommuteNotice {
        let notification = CommuteNotification(
            id: "ntf_\(key)", tripId: "trp_1", kind: "live_activity_update", title: "Leave at 09:20", body: "Office",
            leaveAt: "2027-01-15T08:20:00Z", channels: ["liveactivity"], sentAt: "2027-01-15T08:00:00Z")
        return CommuteNotice(
            id: "ntf_\(key)", accountID: "acc_1", dedupeKey: "commute:trp_1:2027-01-15:liveactivity:\(key)",
            notification: notification,
            messages: [
                .push(
                    dedupeKey: "commute:trp_1:2027-01-15:liveactivity:\(key):push", deviceToken: token, title: "",
                    body: "", data: [PushOptionKeys.pushType: "liveactivity"])
            ])
    }

    static func register(_ store: SQLCommuteStore, token: String = token) async throws {
        try await store.upsertLiveActivity(
            LiveActivityRegistration(
                tripID: "trp_1", accountID: "acc_1", token: token, environment: "sandbox", createdAt: start))
    }

    @Test(arguments: TestEngine.all)
    func oneClaimPerThrottleAndNoneAfterTheEnd(engine: TestEngine) async throws {
        let database = try await engine.makeDatabase()
        let store = SQLCommuteStore(database: database)
        try await Self.register(store)

        // Ten claims at once: one wins.
        let won = try await withThrowingTaskGroup(of: Bool.self) { group in
            for attempt in 0..<10 {
                group.addTask {
                    try await store.recordLiveActivityPush(
                        Self.push(), notice: Self.notice("a\(attempt)"), at: Self.start)
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(won == 1)
        let later = Self.start.addingTimeInterval(10)
        #expect(try await !store.recordLiveActivityPush(Self.push(), notice: Self.notice("b"), at: later))
        #expect(try await !store.recordLiveActivityPush(Self.push(ends: true), notice: Self.notice("c"), at: later))
        let afterThrottle = Self.start.addingTimeInterval(30)
        #expect(try await store.recordLiveActivityPush(Self.push(), notice: Self.notice("d"), at: afterThrottle))
        let saved = try #require(try await store.liveActivity(tripID: "trp_1"))
        #expect(saved.sentAt == afterThrottle && saved.sentDay == "2027-01-15" && saved.endedAt == nil)

        let ending = Self.start.addingTimeInterval(3600)
        #expect(try await store.recordLiveActivityPush(Self.push(ends: true), notice: Self.notice("e"), at: ending))
        #expect(
            try await !store.recordLiveActivityPush(
                Self.push(), notice: Self.notice("f"), at: ending.addingTimeInterval(60)))
        // The end is still in the outbox, which looks its token up.
        #expect(try await store.pushEnvironment(ofDevice: Self.token) == "sandbox")

        // A stale token (the app sent a new one) claims nothing; the new one starts afresh.
        let fresh = String(repeating: "1a2b3c4d5e6f7081", count: 10)
        try await Self.register(store, token: fresh)
        let next = ending.addingTimeInterval(120)
        #expect(try await !store.recordLiveActivityPush(Self.push(), notice: Self.notice("g"), at: next))
        #expect(
            try await store.recordLiveActivityPush(Self.push(token: fresh), notice: Self.notice("h"), at: next))

        // APNs calling it gone forgets it.
        try await store.deactivateDevice(token: fresh, reason: "Unregistered", at: next)
        #expect(try await store.liveActivity(tripID: "trp_1") == nil)
        #expect(try await store.pushEnvironment(ofDevice: fresh) == nil)

        let queued = try await database.query(
            "SELECT COUNT(*) AS n FROM notification_outbox WHERE dedupe_key LIKE 'commute:trp_1:%'")
        #expect(try queued.first?.int("n") == 4)
        #expect(try await store.notifications(accountID: "acc_1", limit: 10).count == 4)
    }

    @Test(arguments: TestEngine.all)
    func twoInstancesNeverSendTwoUpdatesWithinTheThrottleAndEndOnce(engine: TestEngine) async throws {
        let database = try await engine.makeDatabase()
        let store = SQLCommuteStore(database: database)
        let clock = ManualTimeSource(Self.start)
        try await store.insertTrip(
            StoredTrip(accountID: "acc_1", trip: CommuteSchedulerStoreTests.trip(id: "trp_1")), nextCheckAt: Self.start)
        try await Self.register(store)
        let first = CommuteSchedulerStoreTests.scheduler(store, clock: clock, holder: "instance_a")
        let second = CommuteSchedulerStoreTests.scheduler(store, clock: clock, holder: "instance_b")
        // Every 20 seconds both tick at once, each tick re-planning the trip (as a change
        // would); the lease lapses now and then so the leader changes hands.
        var now = Self.start
        for step in 0..<200 {
            clock.set(now)
            try await store.setNextCheck(tripID: "trp_1", at: now)
            async let a = first.tick()
            async let b = second.tick()
            _ = try await (a, b)
            now.addTimeInterval(step % 40 == 39 ? 51 : 20)
        }
        let notices = try await store.notifications(accountID: "acc_1", limit: 500)
        let updates = notices.filter { $0.kind == "live_activity_update" }.compactMap { WireDate.date(from: $0.sentAt) }
        #expect(updates.count >= 3)
        for (newer, older) in zip(updates, updates.dropFirst()) {
            #expect(newer.timeIntervalSince(older) >= 30)
        }
        #expect(notices.filter { $0.kind == "live_activity_end" }.count == 1)
        #expect(notices.first?.kind == "live_activity_end")
        let queued = try await database.query(
            "SELECT COUNT(*) AS n FROM notification_outbox WHERE dedupe_key LIKE 'commute:trp_1:%:liveactivity:%'")
        #expect(try queued.first?.int("n") == updates.count + 1)
    }
}
