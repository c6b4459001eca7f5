import ConciergeCore
import Foundation
import Testing

/// The rules of `SeatChangeNotices` without a database: another instance's notice makes this one
/// read the show again at once, the echo of its own notice does not, and a gap in the notices makes
/// it read every show again.
@Suite struct SeatChangeNoticesTests {
    /// Notices as PostgreSQL delivers them, handed over by the test.
    final class Channel: ClusterNotices, Sendable {
        let sent = Locked<[String]>([])
        private let receivers = Locked<[@Sendable (String) -> Void]>([])
        private let gaps = Locked<[@Sendable () -> Void]>([])

        func send(_ payloads: [String], on channel: String) async throws {
            #expect(channel == "concierge_seats")
            sent.withLock { $0 += payloads }
        }

        func listen(
            on channel: String, receive: @escaping @Sendable (String) -> Void,
            missed: @escaping @Sendable () -> Void
        ) {
            receivers.withLock { $0.append(receive) }
            gaps.withLock { $0.append(missed) }
        }

        func deliver(_ payload: String) { for receive in receivers.withLock({ $0 }) { receive(payload) } }
        func reconnect() { for missed in gaps.withLock({ $0 }) { missed() } }

        /// Sending runs in a task of its own.
        func waitUntilSent(_ count: Int) async throws {
            for _ in 0..<10_000 where sent.withLock({ $0.count }) < count { await Task.yield() }
            try #require(sent.withLock { $0.count } == count)
        }
    }

    /// A cache that would keep a show for an hour: only a notice makes it read again.
    final class Fixture: Sendable {
        let channel = Channel()
        let cache = SeatStateCache(maxAge: .seconds(3600))
        let reads = Locked(0)
        let database = Locked<[String: SeatState]>([:])
        let notices: SeatChangeNotices

        /// Time stands still for the echo window: on a loaded CI machine the real clock let 36 s
        /// pass between a send and its echo, and the echo then counted as another instance's.
        init() {
            let start = ContinuousClock.now
            notices = SeatChangeNotices(cluster: channel, cache: cache, now: { start })
        }

        func taken(_ showID: String = "s") async throws -> [String: SeatState] {
            try await cache.taken(showID: showID) {
                reads.withLock { $0 += 1 }
                return database.withLock { $0 }
            }
            .taken
        }
    }

    @Test func anotherInstancesNoticeMakesTheNextCallerReadTheShowAgain() async throws {
        let fixture = Fixture()
        #expect(try await fixture.taken().isEmpty)
        fixture.database.withLock { $0 = ["A1": .sold] }  // sold on another instance
        #expect(try await fixture.taken().isEmpty)
        fixture.channel.deliver("s")
        #expect(try await fixture.taken() == ["A1": .sold])
        #expect(fixture.reads.withLock { $0 } == 2)
        #expect(try await fixture.taken() == ["A1": .sold])
        #expect(fixture.reads.withLock { $0 } == 2)
    }

    @Test func aChangeHereIsAnnouncedAndItsEchoDoesNotMakeThisInstanceReadAgain() async throws {
        let fixture = Fixture()
        _ = try await fixture.taken()
        fixture.cache.mark(showID: "s", seatIDs: ["B1"], as: .sold)
        fixture.notices.announce(showID: "s")
        try await fixture.channel.waitUntilSent(1)
        #expect(fixture.channel.sent.withLock { $0 } == ["s"])
        fixture.channel.deliver("s")  // the echo
        #expect(try await fixture.taken() == ["B1": .sold])
        #expect(fixture.reads.withLock { $0 } == 1)
        fixture.channel.deliver("s")  // another instance's, after it
        _ = try await fixture.taken()
        #expect(fixture.reads.withLock { $0 } == 2)
    }

    @Test func noticesMissedWhileTheChannelWasDownMakeEveryShowReadAgain() async throws {
        let fixture = Fixture()
        _ = try await fixture.taken("s")
        _ = try await fixture.taken("t")
        fixture.channel.reconnect()
        _ = try await fixture.taken("s")
        _ = try await fixture.taken("t")
        #expect(fixture.reads.withLock { $0 } == 4)
    }
}
