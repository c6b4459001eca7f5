public import ConciergeCore

/// Shows created and changed through the admin API, each write one transaction.
extension SQLEventsStore {
    public func insertShow(_ show: EventShow, seats: [EventSeat]) async throws {
        try await database.transaction { db in try await Self.insert(show, seats: seats, in: db) }
    }

    public func updateShow(_ show: EventShow) async throws {
        try await database.transaction { db in
            try await db.query(
                """
                UPDATE events_shows SET title = ?, description = ?, image_url = ?, starts_at = ?, currency = ?,
                    on_sale_from = ?, on_sale_until = ?
                WHERE id = ?
                """,
                [
                    .text(show.title), .text(show.description), .text(show.imageURL), SQLValue(show.startsAt),
                    .text(show.currency), show.onSaleFrom.map { SQLValue($0) } ?? .null,
                    show.onSaleUntil.map { SQLValue($0) } ?? .null, .text(show.id),
                ])
            try await db.query("DELETE FROM events_show_prices WHERE show_id = ?", [.text(show.id)])
            try await Self.insertPrices(of: show, in: db)
        }
    }
}
