/// The hotel's day as the front desk sees it: who arrives, who leaves, and how full each night
/// is per room type.
public struct StaysFrontDesk: Sendable {
    public struct Occupancy: Sendable, Equatable {
        public let night: StayNight
        public let roomTypeID: Int64
        public let rooms: Int
        public let booked: Int
        public var free: Int { max(0, rooms - booked) }
    }

    public let hotel: HotelSettings
    let store: any StaysStore

    public init(hotel: HotelSettings, store: any StaysStore) {
        self.hotel = hotel
        self.store = store
    }

    public func arrivals(on night: StayNight) async throws -> [(StaysReservationRecord, StaysGuest)] {
        try await store.reservations(arrivingOn: night)
    }

    public func departures(on night: StayNight) async throws -> [(StaysReservationRecord, StaysGuest)] {
        try await store.reservations(leavingOn: night)
    }

    /// One row per night and room type, from `first` to `last` (at most 366 nights).
    public func occupancy(from first: StayNight, to last: StayNight) async throws -> [Occupancy] {
        let calendar = hotel.calendar
        let count = first.days(to: last, in: calendar) + 1
        guard (1...366).contains(count) else {
            throw StaysValidationError(["to": "Give a range of 1 to 366 nights, ending on or after 'from'."])
        }
        let booked = try await store.bookedPerNight(from: first, to: last)
        return (0..<count).flatMap { offset in
            let night = first.adding(days: offset, in: calendar)
            return hotel.roomTypes.map { type in
                Occupancy(night: night, roomTypeID: type.id, rooms: type.rooms, booked: booked[night]?[type.id] ?? 0)
            }
        }
    }
}
