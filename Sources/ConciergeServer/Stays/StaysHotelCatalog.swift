import ConciergeCore
import NIOConcurrencyHelpers

/// This instance's copy of the stored hotel. A request uses the copy; once a second has passed
/// since the last look, the next request reads the stored version (one small row) and reloads
/// only when another instance changed it. Changes made here replace the copy at once. The
/// inventory never depends on the copy: room counts are the units' capacities, which a change
/// sets in its own transaction.
final class StaysHotelCatalog: StaysHotelSource {
    private struct Copy {
        var stored: StoredHotel
        var checkedAt: ContinuousClock.Instant
    }

    private let store: any StaysHotelStore
    private let copy: NIOLockedValueBox<Copy>
    private let freshFor: Duration
    private let clock = ContinuousClock()

    init(store: any StaysHotelStore, initial: StoredHotel, freshFor: Duration = .seconds(1)) {
        self.store = store
        self.freshFor = freshFor
        self.copy = NIOLockedValueBox(Copy(stored: initial, checkedAt: ContinuousClock().now))
    }

    func current() async -> HotelSettings {
        let now = clock.now
        let held = copy.withLockedValue { $0 }
        guard now - held.checkedAt >= freshFor else { return held.stored.hotel }
        // Marked checked first, so a burst of requests sends one look, not one each.
        copy.withLockedValue { $0.checkedAt = now }
        // A database that cannot answer now serves the copy: the next look tries again.
        guard let version = try? await store.version(), version != held.stored.version,
            let stored = try? await store.hotel()
        else { return held.stored.hotel }
        replace(stored)
        return stored.hotel
    }

    /// A newer stored hotel (written here, or read back); an older one never replaces a newer.
    func replace(_ stored: StoredHotel) {
        copy.withLockedValue { copy in
            if stored.version >= copy.stored.version { copy.stored = stored }
            copy.checkedAt = clock.now
        }
    }
}
