public import ConciergeCore
public import Foundation

/// The stored hotel: one row with the settings as JSON and a version that grows with every
/// change, and the uploaded pictures. Changes run under one named lock, so two admins' edits
/// apply one after the other, each to what the other wrote.
public struct SQLStaysHotelStore: StaysHotelStore {
    private let database: any SQLDatabase
    static let lock = "stays-hotel"

    public init(database: any SQLDatabase) {
        self.database = database
    }

    public func hotel() async throws -> StoredHotel? {
        try await Self.hotel(in: database)
    }

    static func hotel(in db: any SQLExecutor) async throws -> StoredHotel? {
        guard let row = try await db.query("SELECT settings, version FROM stays_hotel WHERE id = 1").first else {
            return nil
        }
        let settings = try JSONDecoder().decode(HotelSettings.self, from: Data(try row.string("settings").utf8))
        return StoredHotel(hotel: settings, version: try row.int("version"))
    }

    public func version() async throws -> Int? {
        try await database.query("SELECT version FROM stays_hotel WHERE id = 1").first?.int("version")
    }

    public func seed(_ seed: HotelSettings, at date: Date) async throws -> StoredHotel {
        try await database.transaction(lockKeys: [Self.lock]) { db in
            if let stored = try await Self.hotel(in: db) { return stored }
            var seed = seed
            // Closures from a file get ids, so the admin API can remove them.
            var next: Int64 = (seed.closures.compactMap(\.id).max() ?? 0) + 1
            for index in seed.closures.indices where seed.closures[index].id == nil {
                seed.closures[index].id = next
                next += 1
            }
            try await db.query(
                "INSERT INTO stays_hotel (id, settings, version, updated_at) VALUES (1, ?, 1, ?)",
                [.text(try Self.json(seed)), SQLValue(date)])
            // Nights booked before the hotel was stored (moved from the old per-night counts)
            // take the room counts now, never less than they have booked.
            for type in seed.roomTypes {
                try await SQLHoldStore.setCapacity(
                    prefix: StaysUnits.prefix(roomType: type.id), atLeast: type.rooms, in: db)
            }
            return StoredHotel(hotel: seed, version: 1)
        }
    }

    public func update(
        at date: Date, today: StayNight, _ change: @escaping @Sendable (HotelSettings) throws -> HotelSettings
    ) async throws -> StoredHotel {
        try await database.transaction(lockKeys: [Self.lock]) { db in
            guard let stored = try await Self.hotel(in: db) else {
                throw ConciergeError(
                    .unavailable(retryAfterSeconds: 5), code: "hotel_not_stored",
                    message: "The hotel is not stored yet. Try again shortly.")
            }
            let changed = try change(stored.hotel)
            for type in changed.roomTypes {
                guard let before = stored.hotel.roomType(id: type.id), before.rooms != type.rooms else { continue }
                try await Self.setRooms(type, today: today, hotel: changed, in: db)
            }
            let version = stored.version + 1
            try await db.query(
                "UPDATE stays_hotel SET settings = ?, version = ?, updated_at = ? WHERE id = 1",
                [.text(try Self.json(changed)), SQLValue(version), SQLValue(date)])
            return StoredHotel(hotel: changed, version: version)
        }
    }

    /// Gives every night of the type from `today` on the new count: the nights that exist and
    /// every night that can still be booked (so an instance that has not heard of the change
    /// yet cannot create one with the old count). A night with more booked than the new count
    /// throws `rooms_below_booked`, rolling everything back.
    private static func setRooms(
        _ type: HotelSettings.RoomType, today: StayNight, hotel: HotelSettings, in db: any SQLExecutor
    ) async throws {
        let calendar = hotel.calendar
        let prefix = StaysUnits.prefix(roomType: type.id)
        var keys = Set(
            (0...(hotel.maxDaysAhead + hotel.maxNights)).map {
                StaysUnits.key(roomType: type.id, night: today.adding(days: $0, in: calendar))
            })
        for key in try await SQLHoldStore.unitKeys(prefix: prefix, in: db) {
            if let unit = StaysUnits.parse(key), unit.night >= today { keys.insert(key) }
        }
        let refused = try await SQLHoldStore.setCapacity(keys.sorted(), to: type.rooms, in: db)
        guard !refused.isEmpty else { return }
        throw ConciergeError.staysRoomsBelowBooked(
            type: type.type, rooms: type.rooms, booked: refused.map(\.taken).max() ?? type.rooms + 1,
            nights: refused.compactMap { StaysUnits.parse($0.key)?.night }.sorted())
    }

    public func image(name: String) async throws -> StaysImage? {
        guard let row = try await database.query("SELECT * FROM stays_images WHERE name = ?", [.text(name)]).first,
            let bytes = Data(base64Encoded: try row.string("data"))
        else { return nil }
        return StaysImage(name: name, contentType: try row.string("content_type"), bytes: bytes)
    }

    public func saveImage(_ image: StaysImage, at date: Date) async throws {
        try await database.query(
            """
            INSERT INTO stays_images (name, content_type, data, created_at) VALUES (?, ?, ?, ?)
            ON CONFLICT (name) DO UPDATE SET content_type = excluded.content_type, data = excluded.data
            """,
            [.text(image.name), .text(image.contentType), .text(image.bytes.base64EncodedString()), SQLValue(date)])
    }

    static func json(_ hotel: HotelSettings) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(hotel), as: UTF8.self)
    }
}
