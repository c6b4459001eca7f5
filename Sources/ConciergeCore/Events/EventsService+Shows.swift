/// The box office's shows: created on a venue with price categories and an on-sale window, and
/// changed later. A price change applies to seats bought from then on: an order keeps the prices
/// it was opened at (each ticket carries its own).
extension EventsService {
    public func createShow(_ draft: ShowDraft) async throws -> ShowSummary {
        guard draft.venueID.count <= 100, let venue = try await store.venue(id: draft.venueID) else {
            throw ConciergeError.venueNotFound(draft.venueID)
        }
        try draft.validate(venue: venue, now: clock.now)
        let show = draft.show(id: random.identifier(prefix: "shw"), venue: venue)
        try await store.insertShow(show, seats: venue.seats)
        return try await summary(of: show)
    }

    public func updateShow(id: String, _ patch: ShowPatch) async throws -> ShowSummary {
        let current = try await show(id: id)
        guard !current.show.cancelled else {
            throw ConciergeError(
                .conflict, code: "show_cancelled", message: "This show was cancelled; it cannot be changed any more.")
        }
        var draft = ShowDraft(current.show, venue: current.venue)
        if let title = patch.title { draft.title = title }
        if let description = patch.description { draft.description = description }
        if let imageURL = patch.imageURL { draft.imageURL = imageURL }
        if let startsAt = patch.startsAt { draft.startsAt = startsAt }
        if let categories = patch.categories { draft.categories = categories }
        if let onSaleFrom = patch.onSaleFrom { draft.onSaleFrom = onSaleFrom }
        if let onSaleUntil = patch.onSaleUntil { draft.onSaleUntil = onSaleUntil }
        if let currency = patch.currency, currency != draft.currency {
            // Refunds go back in the currency paid, so orders and the show keep one.
            guard try await store.bookings(showID: id).isEmpty else {
                throw ConciergeError(
                    .conflict, code: "show_has_orders",
                    message: "This show has orders already, so its currency stays \(draft.currency).")
            }
            draft.currency = currency
        }
        try draft.validate(venue: current.venue, now: clock.now, startsAtChanged: patch.startsAt != nil)
        let show = draft.show(id: id, venue: current.venue)
        try await store.updateShow(show)
        return try await summary(of: show)
    }
}
