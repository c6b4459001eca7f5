import ConciergeCore
import ConciergeModels
import ConciergeStore
import ConciergeTestSupport
import Foundation
import Testing

/// The scheduler over the SQL store on both engines: one lease holder at a time, a notice
/// written once whoever writes it, and two instances ticking together sending each notice once.
@Suite struct CommuteSchedulerStoreTests {
    /// 30 minutes at any hour.
    struct HalfHour: TravelTimeProvider {
        let name = "estimator"
        func travelTime(from origin: Coordinate, to destination: Coordinate, departure: Date) async throws
            -> TravelTime
        {
            TravelTime(distanceMeters: 25_000, durationSeconds: 1800, typicalDurationSeconds: 1800, provider: name)
        }
    }

    /// Friday 2027-01-15, 09:00 in Zurich.
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func trip(id: String, arrival: String = "10:00") -> CommuteTrip {
        CommuteTrip(
            id: id, name: "Office", origin: CommutePlace(latitude: 47.3779, longitude: 8.5403, label: "HB"),
            destination: CommutePlace(latitude: 47.4997, longitude: 8.7241, label: "Winterthur"),
            arrivalTime: arrival, repeatDays: ["mon", "tue", "wed", "thu", "fri"], timeZone: "Europe/Zurich",
            createdAt: WireDate.string(from: start))
    }

    static func scheduler(_ store: SQLCommuteStore, clock: ManualTimeSource, holder: String) -> CommuteScheduler {
        let lookup = TravelTimeLookup(primary: nil, heuristic: HalfHour(), clock: clock)
        let service = CommuteService(
            store: store, planner: LeavePlanner(travel: lookup, weather: nil, clock: clock),
            calendar: .noHolidays, clock: clock, random: SystemRandomSource())
        return CommuteScheduler(
            service: service, store: store, clock: clock, random: SystemRandomSource(), holder: holder)
    }

    @Test(arguments: TestEngine.all)
    func oneInstanceHoldsTheLeaseUntilItRunsOut(engine: TestEngine) async throws {
        let store = SQLCommuteStore(database: try await engine.makeDatabase())
        let now = Self.start
        #expect(try await store.acquireLease("s", holder: "a", now: now, until: now.addingTimeInterval(30)))
        #expect(
            try await !store.acquireLease(
                "s", holder: "b", now: now.addingTimeInterval(10), until: now.addingTimeInterval(40)))
        #expect(
            try await store.acquireLease(
                "s", holder: "a", now: now.addingTimeInterval(10), until: now.addingTimeInterval(40)))
        #expect(
            try await store.acquireLease(
                "s", holder: "b", now: now.addingTimeInterval(41), until: now.addingTimeInterval(71)))
        #expect(
            try await !store.acquireLease(
                "s", holder: "a", now: now.addingTimeInterval(42), until: now.addingTimeInterval(72)))
    }

    @Test(arguments: TestEngine.all)
    func twoInstancesSendEachNoticeOnce(engine: TestEngine) async throws {
        let database = try await engine.makeDatabase()
        let store = SQLCommuteStore(database: database)
        let clock = ManualTimeSource(Self.start)
        try await store.insertTrip(
            StoredTrip(accountID: "acc_1", trip: Self.trip(id: "trp_1")), nextCheckAt: Self.start)
        try await store.upsertDevice(
            accountID: "acc_1", sessionID: nil,
            device: CommuteDevice(
                platform: "ios", token: "abcdef0123456789", environment: "sandbox",
                createdAt: WireDate.string(from: Self.start)))
        let first = Self.scheduler(store, clock: clock, holder: "instance_a")
        let second = Self.scheduler(store, clock: clock, holder: "instance_b")
        // Every minute of the morning, both tick at once; the lease lapses now and then so the
        // leader changes hands (a restart, a stalled instance).
        for minute in 0..<70 {
            clock.set(Self.start.addingTimeInterval(Double(minute) * 60))
            async let a = first.tick()
            async let b = second.tick()
            let (ra, rb) = try await (a, b)
            #expect(!(ra.leader && rb.leader) || minute == 0)
            if minute % 20 == 19 { clock.advance(by: 31) }
        }
        let notices = try await store.notifications(accountID: "acc_1", limit: 10)
        #expect(notices.map(\.kind) == ["leave_now", "leave_soon"])
        let queued = try await database.query(
            "SELECT COUNT(*) AS n FROM notification_outbox WHERE dedupe_key LIKE 'commute:trp_1:%'")
        #expect(try queued.first?.int("n") == 2)
    }

    @Test(arguments: TestEngine.all)
    func aNoticeIsWrittenOnceWithItsMessages(engine: TestEngine) async throws {
        let database = try await engine.makeDatabase()
        let store = SQLCommuteStore(database: database)
        let notification = CommuteNotification(
            id: "ntf_1", tripId: "trp_1", kind: "leave_now", title: "Leave now", body: "Go",
            leaveAt: "2027-01-15T08:20:00Z",
            channels: ["push"], sentAt: "2027-01-15T08:20:00Z")
        let notice = CommuteNotice(
            id: "ntf_1", accountID: "acc_1", dedupeKey: "commute:trp_1:2027-01-15:now", notification: notification,
            messages: [
                .push(
                    dedupeKey: "commute:trp_1:2027-01-15:now:push:ab", deviceToken: "ab", title: "Leave now", body: "Go"
                )
            ])
        #expect(try await store.recordNotice(notice, at: Self.start))
        var again = notice
        again = CommuteNotice(
            id: "ntf_2", accountID: again.accountID, dedupeKey: again.dedupeKey, notification: again.notification,
            messages: again.messages)
        #expect(try await !store.recordNotice(again, at: Self.start))
        #expect(try await store.notifications(accountID: "acc_1", limit: 10).count == 1)
        let queued = try await database.query("SELECT COUNT(*) AS n FROM notification_outbox")
        #expect(try queued.first?.int("n") == 1)
    }
}
