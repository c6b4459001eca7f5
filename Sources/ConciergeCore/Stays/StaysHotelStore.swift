public import Foundation

/// The hotel as the server runs it right now: stored in the database (the hotel file or the
/// demo seeds it on first start), changed through the admin API, cached by each instance.
public protocol StaysHotelSource: Sendable {
    func current() async throws -> HotelSettings
}

/// The stored hotel with its version: every change adds one, so an instance learns that its
/// copy is stale from one small read.
public struct StoredHotel: Sendable, Equatable {
    public let hotel: HotelSettings
    public let version: Int

    public init(hotel: HotelSettings, version: Int) {
        self.hotel = hotel
        self.version = version
    }
}

/// A picture uploaded for a room type, served under `/stays/images/{name}`.
public struct StaysImage: Sendable, Equatable {
    public let name: String
    public let contentType: String
    public let bytes: Data

    public init(name: String, contentType: String, bytes: Data) {
        self.name = name
        self.contentType = contentType
        self.bytes = bytes
    }
}

/// Where the hotel's settings, room types, rates and closures live.
public protocol StaysHotelStore: Sendable {
    func hotel() async throws -> StoredHotel?
    func version() async throws -> Int?
    /// Stores `seed` unless a hotel is stored already (another instance, an earlier start), and
    /// answers the stored one.
    func seed(_ seed: HotelSettings, at: Date) async throws -> StoredHotel
    /// Changes the stored hotel under a lock: `change` gets the current one and returns the new
    /// one (or throws, changing nothing). A room type whose room count changes gets the new
    /// count on every night from `today` on, in the same transaction — unless more rooms than
    /// that are booked (held or sold) on a night: then it throws `rooms_below_booked` and
    /// nothing changes.
    func update(
        at: Date, today: StayNight, _ change: @escaping @Sendable (HotelSettings) throws -> HotelSettings
    ) async throws -> StoredHotel
    func image(name: String) async throws -> StaysImage?
    func saveImage(_ image: StaysImage, at: Date) async throws
}

extension ConciergeError {
    /// A room count below what is already booked on some night.
    public static func staysRoomsBelowBooked(type: String, rooms: Int, booked: Int, nights: [StayNight])
        -> ConciergeError
    {
        let shown = nights.prefix(3).map(\.description).joined(separator: ", ")
        let more = nights.count > 3 ? " and \(nights.count - 3) more" : ""
        return ConciergeError(
            .conflict, code: "rooms_below_booked",
            message:
                "The \(type) room type cannot have \(rooms) rooms: \(booked) are booked on \(shown)\(more). Keep at least \(booked), or cancel reservations on those nights first."
        )
    }
}
