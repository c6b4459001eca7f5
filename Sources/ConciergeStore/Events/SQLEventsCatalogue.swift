public import ConciergeCore
public import Foundation

/// Venues, seats and shows in SQL, and the demo catalogue's one-time seeding.
extension SQLEventsStore {
    public func seedIfEmpty(venue: EventVenue, shows: [EventShow]) async throws {
        // Two instances starting at once: the lock makes the second see the first's rows.
        try await database.transaction(lockKeys: ["events-seed:\(venue.id)"]) { db in
            guard try await db.query("SELECT id FROM events_venues WHERE id = ?", [.text(venue.id)]).isEmpty else {
                return
            }
            try await Self.insert(venue, in: db)
            for show in shows { try await Self.insert(show, seats: venue.seats, in: db) }
        }
    }

    /// A venue, its sections and its seats: the demo's seeding and the admin import both write it so.
    static func insert(_ venue: EventVenue, in db: any SQLExecutor) async throws {
        try await db.query(
            "INSERT INTO events_venues (id, name, location, time_zone, width, height) VALUES (?, ?, ?, ?, ?, ?)",
            [
                .text(venue.id), .text(venue.name), .text(venue.location), .text(venue.timeZone),
                SQLValue(venue.width), SQLValue(venue.height),
            ])
        try await Self.insertRows(
            "events_sections", ["venue_id", "id", "name", "color", "rank"],
            venue.sections.map {
                [.text(venue.id), .text($0.id), .text($0.name), .text($0.color), SQLValue($0.rank)]
            },
            in: db)
        try await Self.insertRows(
            "events_seats",
            ["venue_id", "id", "section_id", "row_label", "row_index", "number", "x", "y", "accessible"],
            venue.seats.map {
                [
                    .text(venue.id), .text($0.id), .text($0.sectionID), .text($0.row), SQLValue($0.rowIndex),
                    SQLValue($0.number), SQLValue($0.x), SQLValue($0.y), SQLValue($0.accessible ? 1 : 0),
                ]
            }, in: db)
    }

    /// A show, its prices and one inventory unit (capacity 1) per seat.
    static func insert(_ show: EventShow, seats: [EventSeat], in db: any SQLExecutor) async throws {
        try await db.query(
            """
            INSERT INTO events_shows
                (id, venue_id, title, description, image_url, starts_at, currency, cancelled, on_sale_from, on_sale_until)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(show.id), .text(show.venueID), .text(show.title), .text(show.description), .text(show.imageURL),
                SQLValue(show.startsAt), .text(show.currency), SQLValue(show.cancelled ? 1 : 0),
                show.onSaleFrom.map { SQLValue($0) } ?? .null, show.onSaleUntil.map { SQLValue($0) } ?? .null,
            ])
        try await insertPrices(of: show, in: db)
        // One unit of capacity 1 per seat, in the platform's inventory.
        try await SQLHoldStore.createUnits(
            seats.map { EventUnits.key(show: show.id, seat: $0.id) }, capacity: 1, in: db)
    }

    static func insertPrices(of show: EventShow, in db: any SQLExecutor) async throws {
        try await insertRows(
            "events_show_prices", ["show_id", "section_id", "category", "price_cents", "color"],
            show.prices.map {
                [.text(show.id), .text($0.sectionID), .text($0.category), SQLValue($0.priceCents), .text($0.color)]
            }, in: db)
    }

    /// Many rows, 100 to a statement.
    static func insertRows(
        _ table: String, _ columns: [String], _ rows: [[SQLValue]], in db: any SQLExecutor, suffix: String = ""
    ) async throws {
        let tuple = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        var start = 0
        while start < rows.count {
            let chunk = rows[start..<min(start + 100, rows.count)]
            try await db.query(
                "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES "
                    + Array(repeating: tuple, count: chunk.count).joined(separator: ", ") + suffix,
                chunk.flatMap { $0 })
            start += 100
        }
    }

    public func venue(id: String) async throws -> EventVenue? {
        if let cached = venues[id] { return cached }
        guard let row = try await database.query("SELECT * FROM events_venues WHERE id = ?", [.text(id)]).first else {
            return nil
        }
        let seats = try await database.query(
            "SELECT * FROM events_seats WHERE venue_id = ? ORDER BY section_id, row_index, number", [.text(id)]
        ).map {
            EventSeat(
                id: try $0.string("id"), sectionID: try $0.string("section_id"), row: try $0.string("row_label"),
                rowIndex: try $0.int("row_index"), number: try $0.int("number"), x: try $0.int("x"), y: try $0.int("y"),
                accessible: try $0.int("accessible") != 0)
        }
        let bySection = Dictionary(grouping: seats, by: \.sectionID)
        let sections = try await database.query(
            "SELECT * FROM events_sections WHERE venue_id = ? ORDER BY rank, id", [.text(id)]
        ).map {
            let sectionID = try $0.string("id")
            return EventSection(
                id: sectionID, name: try $0.string("name"), color: try $0.string("color"), rank: try $0.int("rank"),
                seats: bySection[sectionID] ?? [])
        }
        let venue = EventVenue(
            id: id, name: try row.string("name"), location: try row.string("location"),
            timeZone: try row.string("time_zone"), width: try row.int("width"), height: try row.int("height"),
            sections: sections)
        // Venues do not change once written (the admin API imports, never edits), so every read after
        // the first is free.
        venues[id] = venue
        return venue
    }

    public func shows() async throws -> [EventShow] {
        let prices = Dictionary(
            grouping: try await database.query("SELECT * FROM events_show_prices ORDER BY price_cents DESC"),
            by: { (try? $0.string("show_id")) ?? "" })
        return try await database.query("SELECT * FROM events_shows ORDER BY starts_at, id").map {
            try Self.show(from: $0, prices: prices[try $0.string("id")] ?? [])
        }
    }

    public func show(id: String) async throws -> EventShow? {
        guard let row = try await database.query("SELECT * FROM events_shows WHERE id = ?", [.text(id)]).first else {
            return nil
        }
        let prices = try await database.query(
            "SELECT * FROM events_show_prices WHERE show_id = ? ORDER BY price_cents DESC", [.text(id)])
        return try Self.show(from: row, prices: prices)
    }

    static func show(from row: SQLRow, prices: [SQLRow]) throws -> EventShow {
        EventShow(
            id: try row.string("id"), venueID: try row.string("venue_id"), title: try row.string("title"),
            description: try row.string("description"), imageURL: try row.string("image_url"),
            startsAt: try row.date("starts_at"), currency: try row.string("currency"),
            cancelled: try row.int("cancelled") != 0,
            prices: try prices.map {
                ShowPrice(
                    sectionID: try $0.string("section_id"), category: try $0.string("category"),
                    priceCents: try $0.int("price_cents"), color: try $0.string("color"))
            }, onSaleFrom: try row.optionalDate("on_sale_from"), onSaleUntil: try row.optionalDate("on_sale_until"))
    }

    public func takenSeats(showID: String) async throws -> [String: SeatState] {
        var taken: [String: SeatState] = [:]
        let prefix = EventUnits.key(show: showID, seat: "")
        // Through the show's venue's seats: one primary-key lookup per seat, on both engines.
        for row in try await database.query(
            """
            SELECT s.id AS seat_id, u.held AS held, u.sold AS sold, u.capacity AS capacity
            FROM events_shows sh
            JOIN events_seats s ON s.venue_id = sh.venue_id
            JOIN inventory_units u ON u.unit_key = ? || s.id
            WHERE sh.id = ? AND (u.held > 0 OR u.sold > 0 OR u.capacity = 0)
            """, [.text(prefix), .text(showID)])
        {
            // A house seat is a unit of capacity 0 (`blockHouseSeats`): no hold can take it.
            taken[try row.string("seat_id")] =
                try row.int("sold") > 0 ? .sold : try row.int("held") > 0 ? .reserved : .house
        }
        return taken
    }

    public func takenSeats(showID: String, among seatIDs: [String]) async throws -> [String: SeatState] {
        guard !seatIDs.isEmpty else { return [:] }
        let keys = seatIDs.map { SQLValue.text(EventUnits.key(show: showID, seat: $0)) }
        var taken: [String: SeatState] = [:]
        for row in try await database.query(
            """
            SELECT unit_key, held, sold, capacity FROM inventory_units
            WHERE unit_key IN (\(Array(repeating: "?", count: keys.count).joined(separator: ", ")))
              AND (held > 0 OR sold > 0 OR capacity = 0)
            """, keys)
        {
            guard let seat = EventUnits.seat(in: try row.string("unit_key"), show: showID) else { continue }
            taken[seat] = try row.int("sold") > 0 ? .sold : try row.int("held") > 0 ? .reserved : .house
        }
        return taken
    }

    public func seatsHeld(showID: String, ownerID: String, now: Date) async throws -> Set<String> {
        let rows = try await database.query(
            """
            SELECT i.unit_key AS unit_key FROM holds h JOIN hold_items i ON i.hold_id = h.id
            WHERE h.owner_id = ? AND h.state = 'held' AND h.expires_at > ?
            """, [.text(ownerID), SQLValue(now)])
        return Set(try rows.compactMap { EventUnits.seat(in: try $0.string("unit_key"), show: showID) })
    }
}
