import Foundation

/// The buyers' own record of what they paid for, kept beside the server's: the audit compares
/// the two, so a seat sold twice shows up even if the server's own listing hid it.
final class SeatLedger: @unchecked Sendable {
    private let lock = NSLock()
    /// Paid orders per seat, keyed `show/seat`.
    private var buyers: [String: Int] = [:]
    private var orders: [String: Int] = [:]
    private var conflicts = 0
    private var soldOutAnswers = 0
    private var lostRaces = 0

    func record(show: String, seats: [String]) {
        lock.withLock {
            orders[show, default: 0] += 1
            for seat in seats { buyers["\(show)/\(seat)", default: 0] += 1 }
        }
    }

    /// A named seat someone else had (409 `seats_unavailable` naming it).
    func countConflict() { lock.withLock { conflicts += 1 } }

    /// Best available found no room: the show was sold out.
    func countSoldOut() { lock.withLock { soldOutAnswers += 1 } }

    /// Best available found no room while a row's worth of seats was still free: racers took
    /// its picks on every one of the server's tries.
    func countLostRace() { lock.withLock { lostRaces += 1 } }

    struct Totals: Sendable {
        let orders: [String: Int]
        let seats: Int
        let seatsBoughtTwice: Int
        let conflicts: Int
        let soldOutAnswers: Int
        let lostRaces: Int
    }

    var totals: Totals {
        lock.withLock {
            Totals(
                orders: orders, seats: buyers.count, seatsBoughtTwice: buyers.values.filter { $0 > 1 }.count,
                conflicts: conflicts, soldOutAnswers: soldOutAnswers, lostRaces: lostRaces)
        }
    }
}
