public import ConciergeCore

/// Venues imported through the admin API: written in one transaction (all of it or nothing).
extension SQLEventsStore {
    public func insertVenue(_ venue: EventVenue) async throws {
        try await database.transaction { db in try await Self.insert(venue, in: db) }
        venues[venue.id] = venue
    }

    public func venues() async throws -> [EventVenue] {
        var venues: [EventVenue] = []
        for row in try await database.query("SELECT id FROM events_venues ORDER BY name, id") {
            if let venue = try await venue(id: try row.string("id")) { venues.append(venue) }
        }
        return venues
    }
}
