/// Picks `quantity` adjacent free seats of one row, best section first (lowest rank), front rows
/// first, nearest the row's middle; never leaves a single empty seat between taken seats or
/// beside a row's end (aisle), as box offices do, since such a seat rarely sells.
public enum BestAvailable {
    public static func pick(quantity: Int, sections: [EventSection], free: Set<String>) -> [EventSeat]? {
        pick(quantity: quantity, sections: sections, isFree: free.contains)
    }

    public static func pick(quantity: Int, sections: [EventSection], isFree: (String) -> Bool) -> [EventSeat]? {
        guard quantity > 0 else { return nil }
        for section in sections.sorted(by: { ($0.rank, $0.id) < ($1.rank, $1.id) }) {
            for row in section.rows {
                if let seats = pick(quantity: quantity, row: row, isFree: isFree) { return seats }
            }
        }
        return nil
    }

    /// The best block in one row (seats sorted by number), or nil.
    static func pick(quantity: Int, row: [EventSeat], isFree: (String) -> Bool) -> [EventSeat]? {
        var best: (distance: Int, seats: [EventSeat])?
        let middle = Double(row.count - 1) / 2
        for run in runs(of: row, isFree: isFree) where run.count >= quantity {
            for offset in 0...(run.count - quantity) {
                let left = offset
                let right = run.count - quantity - offset
                // A run ends at a taken seat or an aisle; a gap of exactly one seat stays empty.
                guard left != 1, right != 1 else { continue }
                let block = Array(run[offset..<(offset + quantity)])
                guard let first = row.firstIndex(of: block[0]) else { continue }
                let centre = Double(first) + Double(quantity - 1) / 2
                let distance = Int((abs(centre - middle) * 2).rounded())
                if let current = best, current.distance <= distance { continue }
                best = (distance, block)
            }
        }
        return best?.seats
    }

    /// Maximal stretches of free seats with consecutive numbers.
    static func runs(of row: [EventSeat], isFree: (String) -> Bool) -> [[EventSeat]] {
        var runs: [[EventSeat]] = []
        var current: [EventSeat] = []
        for seat in row {
            if isFree(seat.id), let last = current.last, last.number + 1 == seat.number {
                current.append(seat)
            } else {
                if !current.isEmpty { runs.append(current) }
                current = isFree(seat.id) ? [seat] : []
            }
        }
        if !current.isEmpty { runs.append(current) }
        return runs
    }
}
