import ConciergeStore
import ConciergeTestSupport
import Foundation
import Logging
import Testing

/// `LISTEN/NOTIFY` between two engines on one database, and the listener coming back after
/// PostgreSQL dropped its connection.
@Suite struct PostgresClusterNoticesTests {
    /// What one listener heard.
    final class Heard: @unchecked Sendable {
        private let lock = NSLock()
        private var payloads: [String] = []
        private var gaps = 0

        func receive(_ payload: String) { lock.withLock { payloads.append(payload) } }
        func missed() { lock.withLock { gaps += 1 } }
        var all: [String] { lock.withLock { payloads } }
        var missedCount: Int { lock.withLock { gaps } }

        /// Waits (in real time: the notices travel through PostgreSQL) up to 30 s, for a loaded CI
        /// machine; a notice that never comes still fails.
        func wait(until done: (Heard) -> Bool) async throws -> Bool {
            let deadline = ContinuousClock.now + .seconds(30)
            while ContinuousClock.now < deadline {
                if done(self) { return true }
                try await Task.sleep(for: .milliseconds(5))
            }
            return done(self)
        }
    }

    @Test(.enabled(if: TestEngine.all.contains(.postgres)))
    func anotherEnginesNoticesArriveAndKeepArrivingAfterTheListenerWasCutOff() async throws {
        let url = try PostgresURL(try await PostgresTestServer.shared.makeDatabaseURL())
        let logger = Logger(label: "concierge.tests.notices")
        let listening = PostgresEngine(url: url, logger: logger)
        let sending = PostgresEngine(url: url, logger: logger)
        let notices = PostgresClusterNotices(engine: listening, logger: logger)
        let heard = Heard()
        notices.listen(on: "concierge_seats", receive: { heard.receive($0) }, missed: { heard.missed() })
        let running = Task { await notices.run() }
        defer { running.cancel() }
        #expect(try await heard.wait { $0.missedCount == 1 })

        let other = PostgresClusterNotices(engine: sending, logger: logger)
        try await other.send(["shw_1", "shw_2"], on: "concierge_seats")
        #expect(try await heard.wait { $0.all == ["shw_1", "shw_2"] })

        // PostgreSQL ends the listening connection (a restart, a network cut, an operator).
        _ = try await sending.query(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND pid <> pg_backend_pid()",
            [])
        #expect(try await heard.wait { $0.missedCount == 2 })
        try await other.send(["shw_3"], on: "concierge_seats")
        #expect(try await heard.wait { $0.all == ["shw_1", "shw_2", "shw_3"] })

        running.cancel()
        await running.value
        try await sending.close()
        try await listening.close()
    }
}
