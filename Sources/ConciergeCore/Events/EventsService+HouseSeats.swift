/// Seats the box office keeps for house use (guests, press, technicians): not for sale, shown to
/// buyers as sold, skipped by best available. A seat someone holds or bought cannot be blocked.
extension EventsService {
    public static let maximumHouseSeatsPerRequest = 500

    /// Blocks the seats, all or none, and answers every house seat of the show.
    public func blockHouseSeats(showID: String, seatIDs: [String]) async throws -> [String] {
        let summary = try await show(id: showID)
        try houseSeatRequest(seatIDs, venue: summary.venue)
        try await store.blockHouseSeats(showID: showID, seatIDs: seatIDs)
        seatStates.forget(showID: showID)
        announceSeatChange(showID: showID)
        return try await houseSeats(showID: showID)
    }

    /// Puts the seats back on sale and answers the house seats left.
    public func releaseHouseSeats(showID: String, seatIDs: [String]) async throws -> [String] {
        let summary = try await show(id: showID)
        try houseSeatRequest(seatIDs, venue: summary.venue)
        try await store.releaseHouseSeats(showID: showID, seatIDs: seatIDs)
        seatStates.forget(showID: showID)
        announceSeatChange(showID: showID)
        return try await houseSeats(showID: showID)
    }

    public func houseSeats(showID: String) async throws -> [String] {
        let summary = try await show(id: showID)
        let taken = try await store.takenSeats(showID: showID)
        return summary.venue.seats.map(\.id).filter { taken[$0] == .house }
    }

    private func houseSeatRequest(_ seatIDs: [String], venue: EventVenue) throws {
        guard (1...Self.maximumHouseSeatsPerRequest).contains(seatIDs.count) else {
            throw ConciergeError.invalidSeatSelection(
                "Name 1 to \(Self.maximumHouseSeatsPerRequest) seats in 'seats'; \(seatIDs.count) were sent.")
        }
        let known = Set(venue.seats.map(\.id))
        let unknown = seatIDs.filter { !known.contains($0) }
        guard unknown.isEmpty else {
            throw ConciergeError.invalidSeatSelection(
                "These are not seats of this show: \(unknown.prefix(10).map { String($0.prefix(40)) }.joined(separator: ", "))."
            )
        }
    }
}
