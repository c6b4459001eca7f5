import ConciergeCore
import Foundation

/// Venues read once per process: their layout does not change once written.
final class VenueCache: @unchecked Sendable {
    private let lock = NSLock()
    private var venues: [String: EventVenue] = [:]

    subscript(id: String) -> EventVenue? {
        get { lock.withLock { venues[id] } }
        set { lock.withLock { venues[id] = newValue } }
    }
}
