/// The box office's venues: a layout JSON imported once (venues are not edited afterwards, so a
/// show's seat map never changes under its buyers), listed and read back.
extension EventsService {
    public func importVenue(_ layout: VenueLayout) async throws -> EventVenue {
        try layout.validate()
        let venue = layout.venue(id: random.identifier(prefix: "ven"))
        try await store.insertVenue(venue)
        return venue
    }

    public func venues() async throws -> [EventVenue] { try await store.venues() }

    public func venue(id: String) async throws -> EventVenue {
        guard id.count <= 100, let venue = try await store.venue(id: id) else { throw ConciergeError.venueNotFound(id) }
        return venue
    }
}

extension ConciergeError {
    static func venueNotFound(_ id: String) -> ConciergeError {
        ConciergeError(
            .notFound, code: "venue_not_found",
            message: "There is no venue \(id.prefix(80)). GET /events/api/admin/venues lists them.")
    }
}
