import ConciergeCore
import Foundation
import NIOCore

/// The last `GET /events/api/shows/{id}/seats` body of each show, kept while its seat states
/// (their `SeatStateCache` version) and its prices stay the same: apps poll the list while a buyer
/// chooses, and writing 2,000 seats' JSON for each poll was most of the seat map's work. Bodies
/// that mark the viewer's own held seats are written each time.
final class SeatListBodies: @unchecked Sendable {
    private struct Key: Hashable {
        let showID: String
        let signedIn: Bool
    }

    private struct Kept {
        let version: UInt64
        let show: EventShow
        let body: ByteBuffer
    }

    private let lock = NSLock()
    private var kept: [Key: Kept] = [:]

    func body(
        _ summary: ShowSummary, taken: SeatStateCache.Snapshot, mine: Set<String>, signedIn: Bool
    ) -> ByteBuffer {
        let key = Key(showID: summary.show.id, signedIn: signedIn)
        if mine.isEmpty,
            let hit = lock.withLock({ kept[key] }), hit.version == taken.version, hit.show == summary.show
        {
            return hit.body
        }
        let body = EventsWire.seats(summary, taken: taken.taken, mine: mine, signedIn: signedIn).json
        if mine.isEmpty { lock.withLock { kept[key] = Kept(version: taken.version, show: summary.show, body: body) } }
        return body
    }
}
