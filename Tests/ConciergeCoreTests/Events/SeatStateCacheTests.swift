import ConciergeCore
import Foundation
import Testing

/// The rules of `SeatStateCache`: what it reuses, when it reads again, and that a change made by
/// this instance is never lost to a read that raced it.
@Suite struct SeatStateCacheTests {
    /// A clock the test moves by hand, and a database read that counts its calls.
    final class Fixture: Sendable {
        let base = ContinuousClock.now
        let offset = Locked<Duration>(.zero)
        let reads = Locked(0)
        let database = Locked<[String: SeatState]>([:])

        func cache(maxAge: Duration = .milliseconds(500)) -> SeatStateCache {
            SeatStateCache(maxAge: maxAge) { [self] in base.advanced(by: offset.withLock { $0 }) }
        }

        func advance(_ duration: Duration) { offset.withLock { $0 += duration } }

        func read() -> [String: SeatState] {
            reads.withLock { $0 += 1 }
            return database.withLock { $0 }
        }
    }

    @Test func aShowsSeatStatesAreReadOnceWhileYoungAndAgainOnceOld() async throws {
        let fixture = Fixture()
        let cache = fixture.cache()
        fixture.database.withLock { $0 = ["A1": .sold] }
        #expect(try await cache.taken(showID: "s") { fixture.read() }.taken == ["A1": .sold])
        fixture.database.withLock { $0["A2"] = .reserved }  // another instance's sale
        fixture.advance(.milliseconds(499))
        #expect(try await cache.taken(showID: "s") { fixture.read() }.taken == ["A1": .sold])
        #expect(fixture.reads.withLock { $0 } == 1)
        fixture.advance(.milliseconds(1))
        #expect(try await cache.taken(showID: "s") { fixture.read() }.taken == ["A1": .sold, "A2": .reserved])
        #expect(fixture.reads.withLock { $0 } == 2)
    }

    @Test func thisInstancesOwnHoldsAndSalesShowAtOnceWithANewVersion() async throws {
        let fixture = Fixture()
        let cache = fixture.cache()
        let first = try await cache.taken(showID: "s") { fixture.read() }
        cache.mark(showID: "s", seatIDs: ["B1", "B2"], as: .reserved)
        let held = try await cache.taken(showID: "s") { fixture.read() }
        #expect(held.taken == ["B1": .reserved, "B2": .reserved])
        #expect(held.version != first.version)
        cache.mark(showID: "s", seatIDs: ["B1", "B2"], as: .sold)
        #expect(try await cache.taken(showID: "s") { fixture.read() }.taken == ["B1": .sold, "B2": .sold])
        #expect(fixture.reads.withLock { $0 } == 1)
    }

    @Test func seatsBackOnSaleAndFreshReadsGoToTheDatabase() async throws {
        let fixture = Fixture()
        let cache = fixture.cache()
        fixture.database.withLock { $0 = ["A1": .reserved] }
        _ = try await cache.taken(showID: "s") { fixture.read() }
        fixture.database.withLock { $0 = [:] }
        cache.forget(showID: "s")
        #expect(try await cache.taken(showID: "s") { fixture.read() }.taken.isEmpty)
        fixture.database.withLock { $0 = ["C3": .sold] }  // a racer on another instance
        #expect(try await cache.taken(showID: "s", fresh: true) { fixture.read() }.taken == ["C3": .sold])
        #expect(try await cache.taken(showID: "s") { fixture.read() }.taken == ["C3": .sold])
        #expect(fixture.reads.withLock { $0 } == 3)
    }

    @Test func aMarkMadeWhileAReadRunsIsKeptAndAForgetSpoilsTheRead() async throws {
        let fixture = Fixture()
        let cache = fixture.cache()
        // The read saw the database before this instance's hold committed; the mark lands during it.
        let raced = try await cache.taken(showID: "s") {
            cache.mark(showID: "s", seatIDs: ["D4"], as: .reserved)
            return fixture.read()
        }
        #expect(raced.taken == ["D4": .reserved])
        #expect(try await cache.taken(showID: "s") { fixture.read() }.taken == ["D4": .reserved])
        // Seats going back on sale during a read: its answer is served once but not kept.
        fixture.advance(.seconds(1))
        fixture.database.withLock { $0 = ["D4": .reserved] }
        _ = try await cache.taken(showID: "s") {
            let seen = fixture.read()
            fixture.database.withLock { $0 = [:] }
            cache.forget(showID: "s")
            return seen
        }
        #expect(try await cache.taken(showID: "s") { fixture.read() }.taken.isEmpty)
    }

    @Test func whileOneCallerReadsTheOthersGetTheKeptStates() async throws {
        let fixture = Fixture()
        let cache = fixture.cache()
        fixture.database.withLock { $0 = ["E1": .sold] }
        _ = try await cache.taken(showID: "s") { fixture.read() }
        fixture.advance(.seconds(1))
        fixture.database.withLock { $0 = ["E1": .sold, "E2": .sold] }
        let during = try await cache.taken(showID: "s") {
            // A second caller arriving while this read runs does not read too.
            let other = try await cache.taken(showID: "s") { fixture.read() }
            #expect(other.taken == ["E1": .sold])
            return fixture.read()
        }
        #expect(during.taken == ["E1": .sold, "E2": .sold])
        #expect(fixture.reads.withLock { $0 } == 2)
    }

    @Test func seatsMarkedForACheckoutThatFailedAreAvailableAgain() async throws {
        let fixture = Fixture()
        let cache = fixture.cache()
        fixture.database.withLock { $0 = ["G1": .sold] }
        _ = try await cache.taken(showID: "s") { fixture.read() }
        cache.mark(showID: "s", seatIDs: ["G2", "G3"], as: .reserved)
        cache.mark(showID: "s", seatIDs: ["G2", "G3"], as: .available)
        let after = try await cache.taken(showID: "s") { fixture.read() }
        #expect(after.taken == ["G1": .sold])
    }

    @Test func aMaximumAgeOfZeroReadsEveryTime() async throws {
        let fixture = Fixture()
        let cache = fixture.cache(maxAge: .zero)
        for _ in 0..<3 { _ = try await cache.taken(showID: "s") { fixture.read() } }
        cache.mark(showID: "s", seatIDs: ["F1"], as: .sold)
        #expect(fixture.reads.withLock { $0 } == 3)
    }
}

/// A value behind a lock (`Mutex` needs macOS 15; the package supports macOS 14).
final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<T>(_ body: (inout Value) -> T) -> T { lock.withLock { body(&value) } }
}
