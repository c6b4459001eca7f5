import ConciergeCore

/// House seats: a seat of a show blocked by the box office is its inventory unit at capacity 0,
/// so the platform's holds (`held + sold + quantity <= capacity`) can never take it, and blocking
/// is one conditional write per seat that a racing hold cannot slip past.
extension SQLEventsStore {
    public func blockHouseSeats(showID: String, seatIDs: [String]) async throws {
        let seatOfKey = Dictionary(uniqueKeysWithValues: seatIDs.map { (EventUnits.key(show: showID, seat: $0), $0) })
        try await database.transaction { db in
            let taken = try await SQLHoldStore.withdrawFromSale(Array(seatOfKey.keys), in: db)
            // Throwing rolls every seat of the request back: all of them are blocked or none.
            guard taken.isEmpty else {
                throw SeatsUnavailableError(seatIDs: taken.compactMap { seatOfKey[$0] }.sorted())
            }
        }
    }

    public func releaseHouseSeats(showID: String, seatIDs: [String]) async throws {
        try await database.transaction { db in
            try await SQLHoldStore.returnToSale(
                seatIDs.map { EventUnits.key(show: showID, seat: $0) }, capacity: 1, in: db)
        }
    }
}
