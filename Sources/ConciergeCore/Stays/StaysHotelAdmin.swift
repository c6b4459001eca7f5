public import Foundation

/// The admin API's changes to the stored hotel: settings, room types (counts and pictures),
/// rates and closures. Each change is checked as a whole hotel (`HotelSettings.problems`) and
/// written under a lock; a room count never drops below what is booked on any night ahead.
public struct StaysHotelAdmin: Sendable {
    /// The settings `PATCH /stays/admin/hotel` may change; absent keys stay as they are.
    public struct SettingsChange: Codable, Sendable, Equatable {
        public var name: String?
        public var timeZone: String?
        public var currency: String?
        public var vatPercent: Double?
        public var cityTaxCentsPerPersonNight: Int?
        public var checkInHour: Int?
        public var checkOutHour: Int?
        public var maxNights: Int?
        public var maxDaysAhead: Int?
        public var maxGuests: Int?

        public init() {}
    }

    /// A room type's fields; absent keys stay as they are (`POST` needs type, capacity, rooms
    /// and baseRateCents).
    public struct RoomTypeChange: Codable, Sendable, Equatable {
        public var id: Int64?
        public var type: String?
        public var description: String?
        public var capacity: Int?
        public var rooms: Int?
        public var baseRateCents: Int?
        public var image: String?
        public var minimumStay: Int?
        public var paymentPolicy: HotelSettings.PaymentPolicy?

        public init() {}
    }

    /// `PUT /stays/admin/rates`: the weekend rule, the seasons (the list replaces the old one)
    /// and per room type its base rate, minimum stay and payment policy.
    public struct RatesChange: Codable, Sendable, Equatable {
        public var weekend: HotelSettings.WeekendRule?
        public var seasons: [HotelSettings.Season]?
        public var roomTypes: [RoomTypeChange]?

        public init() {}
    }

    /// The pictures an upload may be, by their first bytes.
    public enum ImageKind: String, Sendable, CaseIterable {
        case png = "image/png"
        case jpeg = "image/jpeg"
        case webp = "image/webp"

        public var fileExtension: String {
            switch self {
            case .png: "png"
            case .jpeg: "jpg"
            case .webp: "webp"
            }
        }

        /// The kind the bytes are, whatever the request claims; nil for anything else (SVG too:
        /// a script in an uploaded drawing would run on this origin).
        public static func sniff(_ bytes: Data) -> ImageKind? {
            let head = [UInt8](bytes.prefix(12))
            if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
            if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
            if head.count == 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) {
                return .webp
            }
            return nil
        }
    }

    public static let maximumImageBytes = 2 * 1024 * 1024

    let store: any StaysHotelStore
    let clock: any TimeSource
    let random: any RandomSource
    /// Told of every stored change, so this instance serves it at once.
    let changed: @Sendable (StoredHotel) -> Void

    public init(
        store: any StaysHotelStore, clock: any TimeSource, random: any RandomSource,
        changed: @escaping @Sendable (StoredHotel) -> Void
    ) {
        self.store = store
        self.clock = clock
        self.random = random
        self.changed = changed
    }

    public func hotel() async throws -> HotelSettings {
        guard let stored = try await store.hotel() else {
            throw ConciergeError(
                .unavailable(retryAfterSeconds: 5), code: "hotel_not_stored",
                message: "The hotel is not stored yet (the database is being migrated). Try again shortly.")
        }
        return stored.hotel
    }

    public func updateSettings(_ change: SettingsChange) async throws -> HotelSettings {
        try await update { hotel in
            var hotel = hotel
            if let value = change.name { hotel.name = value.trimmingCharacters(in: .whitespaces) }
            if let value = change.timeZone { hotel.timeZone = value }
            if let value = change.currency { hotel.currency = value }
            if let value = change.vatPercent { hotel.vatPercent = value }
            if let value = change.cityTaxCentsPerPersonNight { hotel.cityTaxCentsPerPersonNight = value }
            if let value = change.checkInHour { hotel.checkInHour = value }
            if let value = change.checkOutHour { hotel.checkOutHour = value }
            if let value = change.maxNights { hotel.maxNights = value }
            if let value = change.maxDaysAhead { hotel.maxDaysAhead = value }
            if let value = change.maxGuests { hotel.maxGuests = value }
            return hotel
        }
    }

    /// Adds a room type; its id is the one given or the next free one.
    public func addRoomType(_ change: RoomTypeChange) async throws -> HotelSettings.RoomType {
        var missing: [String: String] = [:]
        if change.type == nil { missing["type"] = "Name the room type, e.g. Double." }
        if change.capacity == nil { missing["capacity"] = "Say how many people a room holds." }
        if change.rooms == nil { missing["rooms"] = "Say how many rooms of this type the hotel has." }
        if change.baseRateCents == nil { missing["baseRateCents"] = "Give the base rate per night in cents." }
        guard missing.isEmpty, let name = change.type, let capacity = change.capacity, let rooms = change.rooms,
            let rate = change.baseRateCents
        else { throw StaysValidationError(missing) }
        let idBox = IDBox()
        let hotel = try await update { hotel in
            var hotel = hotel
            let id = change.id ?? ((hotel.roomTypes.map(\.id).max() ?? 0) + 1)
            guard hotel.roomType(id: id) == nil else {
                throw StaysValidationError(["id": "There is a room type \(id) already."], conflict: true)
            }
            let type = HotelSettings.RoomType(
                id: id, type: name, description: change.description ?? name, capacity: capacity, rooms: rooms,
                baseRateCents: rate, image: change.image ?? "\(name.lowercased().filter { $0.isLetter }).svg",
                minimumStay: change.minimumStay ?? 1, paymentPolicy: change.paymentPolicy ?? .payAtHotel)
            hotel.roomTypes.append(type)
            idBox.id = id
            return hotel
        }
        guard let type = hotel.roomType(id: idBox.id) else { throw ConciergeError.staysRoomTypeNotFound(idBox.id) }
        return type
    }

    /// Changes a room type's fields: a lower room count than is booked on a night ahead is
    /// refused (409 `rooms_below_booked`).
    public func updateRoomType(id: Int64, _ change: RoomTypeChange) async throws -> HotelSettings.RoomType {
        if let given = change.id, given != id {
            throw StaysValidationError(["id": "A room type keeps its id; this one is \(id)."])
        }
        let hotel = try await update { hotel in
            var hotel = hotel
            guard let index = hotel.roomTypes.firstIndex(where: { $0.id == id }) else {
                throw ConciergeError.staysRoomTypeNotFound(id)
            }
            Self.apply(change, to: &hotel.roomTypes[index])
            return hotel
        }
        guard let type = hotel.roomType(id: id) else { throw ConciergeError.staysRoomTypeNotFound(id) }
        return type
    }

    public func updateRates(_ change: RatesChange) async throws -> HotelSettings {
        try await update { hotel in
            var hotel = hotel
            if let weekend = change.weekend { hotel.weekend = weekend }
            if let seasons = change.seasons { hotel.seasons = seasons }
            for rate in change.roomTypes ?? [] {
                guard let id = rate.id, let index = hotel.roomTypes.firstIndex(where: { $0.id == id }) else {
                    throw StaysValidationError(["roomTypes": "Name each room type by an id of the hotel's."])
                }
                // Rates only: counts, names and pictures change through the room type.
                var only = RoomTypeChange()
                only.baseRateCents = rate.baseRateCents
                only.minimumStay = rate.minimumStay
                only.paymentPolicy = rate.paymentPolicy
                Self.apply(only, to: &hotel.roomTypes[index])
            }
            return hotel
        }
    }

    public func addClosure(_ closure: HotelSettings.Closure) async throws -> HotelSettings.Closure {
        let idBox = IDBox()
        let hotel = try await update { hotel in
            var hotel = hotel
            var closure = closure
            closure.id = (hotel.closures.compactMap(\.id).max() ?? 0) + 1
            closure.reason = closure.reason?.trimmingCharacters(in: .whitespacesAndNewlines)
            if let reason = closure.reason, reason.count > 200 {
                throw StaysValidationError(["reason": "Give the reason in at most 200 characters."])
            }
            idBox.id = closure.id ?? 0
            hotel.closures.append(closure)
            return hotel
        }
        guard let added = hotel.closures.first(where: { $0.id == idBox.id }) else {
            throw ConciergeError.staysClosureNotFound(idBox.id)
        }
        return added
    }

    public func removeClosure(id: Int64) async throws -> HotelSettings {
        try await update { hotel in
            var hotel = hotel
            guard hotel.closures.contains(where: { $0.id == id }) else { throw ConciergeError.staysClosureNotFound(id) }
            hotel.closures.removeAll { $0.id == id }
            return hotel
        }
    }

    /// Stores a PNG, JPEG or WebP picture for a room type and makes it the type's `image`.
    public func saveImage(roomTypeID: Int64, bytes: Data) async throws -> HotelSettings.RoomType {
        guard !bytes.isEmpty, bytes.count <= Self.maximumImageBytes else {
            throw StaysValidationError([
                "image": "Send a picture of 1 byte to \(Self.maximumImageBytes / 1_048_576) MB."
            ])
        }
        guard let kind = ImageKind.sniff(bytes) else {
            throw StaysValidationError(["image": "Send a PNG, JPEG or WebP picture."])
        }
        guard try await hotel().roomType(id: roomTypeID) != nil else {
            throw ConciergeError.staysRoomTypeNotFound(roomTypeID)
        }
        let name = "room\(roomTypeID)-\(random.digits(10)).\(kind.fileExtension)"
        try await store.saveImage(StaysImage(name: name, contentType: kind.rawValue, bytes: bytes), at: clock.now)
        var change = RoomTypeChange()
        change.image = name
        return try await updateRoomType(id: roomTypeID, change)
    }

    /// Runs `change` under the store's lock, checks the whole hotel, and tells the cache.
    private func update(_ change: @escaping @Sendable (HotelSettings) throws -> HotelSettings) async throws
        -> HotelSettings
    {
        let now = clock.now
        let current = try await hotel()
        let stored = try await store.update(at: now, today: StayNight(now, in: current.calendar)) { hotel in
            var changed = try change(hotel)
            changed.name = changed.name.trimmingCharacters(in: .whitespaces)
            let problems = changed.problems()
            guard problems.isEmpty else { throw StaysValidationError(problems) }
            return changed
        }
        changed(stored)
        return stored.hotel
    }

    static func apply(_ change: RoomTypeChange, to type: inout HotelSettings.RoomType) {
        if let value = change.type { type.type = value.trimmingCharacters(in: .whitespaces) }
        if let value = change.description { type.description = value }
        if let value = change.capacity { type.capacity = value }
        if let value = change.rooms { type.rooms = value }
        if let value = change.baseRateCents { type.baseRateCents = value }
        if let value = change.image { type.image = value }
        if let value = change.minimumStay { type.minimumStay = value }
        if let value = change.paymentPolicy { type.paymentPolicy = value }
    }
}

/// The id a change chose, read after the change committed.
private final class IDBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Int64 = 0

    var id: Int64 {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}

extension ConciergeError {
    static func staysRoomTypeNotFound(_ id: Int64) -> ConciergeError {
        ConciergeError(.notFound, code: "not_found", message: "There is no room type \(id) in this hotel.")
    }

    static func staysClosureNotFound(_ id: Int64) -> ConciergeError {
        ConciergeError(.notFound, code: "not_found", message: "There is no closure \(id).")
    }
}
