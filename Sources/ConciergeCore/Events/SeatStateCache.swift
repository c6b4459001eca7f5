import Foundation

/// The taken seats of each show as this instance last knew them, reused for a moment.
///
/// Reading a show's seat states is one look-up per seat of its hall (2,000 in a large one), and
/// every checkout, seat map and show summary needs them: in the seats benchmark that read was a
/// third of the server's work per order. The states here are a hint, never the judge: a checkout
/// still places its hold in the database, which refuses a seat someone else holds, so a stale
/// entry can cost a buyer a retry but can never sell a seat twice.
///
/// What this instance changes it writes here at once (`mark` after its commit; `forget` when seats
/// go back on sale), so its own buyers and maps see their changes immediately. Changes made
/// elsewhere (another instance, a hold released through the platform's API) show once the entry is
/// `maxAge` old, or sooner when another instance says so (`invalidate`, from `SeatChangeNotices`
/// on PostgreSQL). A read that races a change keeps the change: marks made while it ran are applied
/// again on top, and a `forget` while it ran means its result is not kept.
public final class SeatStateCache: @unchecked Sendable {
    /// One show's taken seats; `version` changes whenever they do (the seat map's body is kept per
    /// version).
    public struct Snapshot: Sendable {
        public let taken: [String: SeatState]
        public let version: UInt64
    }

    private struct Entry {
        var snapshot: Snapshot
        var readAt: ContinuousClock.Instant
        /// Changed elsewhere since it was read: refreshed by the next caller, whatever its age.
        var stale = false
    }

    /// A read in flight: the marks made since it started, and whether a `forget` spoiled it.
    private struct Refresh {
        var marks: [(seatIDs: [String], state: SeatState)] = []
        var spoiled = false
    }

    private let maxAge: Duration
    private let now: @Sendable () -> ContinuousClock.Instant
    private let lock = NSLock()
    private var entries: [String: Entry] = [:]
    private var refreshes: [String: [UInt64: Refresh]] = [:]
    private var nextVersion: UInt64 = 1

    /// `maxAge` zero reads the database every time.
    public init(maxAge: Duration, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.maxAge = maxAge
        self.now = now
    }

    /// The show's taken seats: the kept ones while younger than `maxAge`, else `read()` (kept for
    /// the next callers unless a `forget` happened while it ran). While one caller reads, the others
    /// get the kept ones even if older, rather than all reading at once. `fresh` reads regardless:
    /// after a racer took a seat this instance thought free.
    public func taken(showID: String, fresh: Bool = false, read: () async throws -> [String: SeatState])
        async throws -> Snapshot
    {
        enum Plan {
            case kept(Snapshot)
            case read(ticket: UInt64)
        }
        let plan: Plan = lock.withLock {
            if !fresh, let entry = entries[showID] {
                let reading = !(refreshes[showID]?.isEmpty ?? true)
                if (!entry.stale && now() - entry.readAt < maxAge) || reading { return .kept(entry.snapshot) }
            }
            let ticket = takeVersion()
            refreshes[showID, default: [:]][ticket] = Refresh()
            return .read(ticket: ticket)
        }
        let ticket: UInt64
        switch plan {
        case .kept(let snapshot): return snapshot
        case .read(let taken): ticket = taken
        }
        let started = now()
        let loaded: [String: SeatState]
        do {
            loaded = try await read()
        } catch {
            lock.withLock { _ = refreshes[showID]?.removeValue(forKey: ticket) }
            throw error
        }
        return lock.withLock {
            let refresh = refreshes[showID]?.removeValue(forKey: ticket) ?? Refresh()
            var taken = loaded
            for mark in refresh.marks { Self.apply(mark.state, to: mark.seatIDs, in: &taken) }
            let snapshot = Snapshot(taken: taken, version: takeVersion())
            // A read that started earlier than the kept one does not replace it.
            let newer = entries[showID].map { $0.readAt <= started } ?? true
            if !refresh.spoiled, newer, maxAge > .zero {
                entries[showID] = Entry(snapshot: snapshot, readAt: started)
            }
            return snapshot
        }
    }

    /// Seats this instance is holding (`.reserved`: a checkout marks its pick before its hold
    /// commits, so that its concurrent buyers pick other seats), sold (`.sold`), or gave up
    /// holding (`.available`: its checkout failed for a reason of its own).
    public func mark(showID: String, seatIDs: [String], as state: SeatState) {
        lock.withLock {
            for ticket in refreshes[showID]?.keys.map({ $0 }) ?? [] {
                refreshes[showID]?[ticket]?.marks.append((seatIDs, state))
            }
            guard var entry = entries[showID] else { return }
            var taken = entry.snapshot.taken
            Self.apply(state, to: seatIDs, in: &taken)
            entry.snapshot = Snapshot(taken: taken, version: takeVersion())
            entries[showID] = entry
        }
    }

    /// Seats of the show changed in a way a mark cannot say (back on sale, blocked, lost to a
    /// racer): the next caller reads the database.
    public func forget(showID: String) {
        lock.withLock {
            entries[showID] = nil
            for ticket in refreshes[showID]?.keys.map({ $0 }) ?? [] { refreshes[showID]?[ticket]?.spoiled = true }
        }
    }

    /// Another instance changed the show's seats: the next caller reads the database. Unlike
    /// `forget`, the kept states still serve the callers that come while that one read runs, so a
    /// burst of notices during an on-sale does not send every buyer to the database at once.
    public func invalidate(showID: String) {
        lock.withLock {
            entries[showID]?.stale = true
            for ticket in refreshes[showID]?.keys.map({ $0 }) ?? [] { refreshes[showID]?[ticket]?.spoiled = true }
        }
    }

    /// Changes may have been missed (the notices' connection was down): every show is read again.
    public func invalidateAll() {
        lock.withLock {
            for showID in entries.keys { entries[showID]?.stale = true }
            for showID in refreshes.keys {
                for ticket in refreshes[showID]?.keys.map({ $0 }) ?? [] { refreshes[showID]?[ticket]?.spoiled = true }
            }
        }
    }

    private static func apply(_ state: SeatState, to seatIDs: [String], in taken: inout [String: SeatState]) {
        for seat in seatIDs { taken[seat] = state == .available ? nil : state }
    }

    /// Called with the lock held.
    private func takeVersion() -> UInt64 {
        defer { nextVersion &+= 1 }
        return nextVersion
    }
}
