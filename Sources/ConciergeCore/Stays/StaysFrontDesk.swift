/// The hotel's day as the front desk sees it: who arrives, who leaves, and how full each night
/// is per room type.
public struct StaysFrontDesk: Sendable {
    public struct Occupancy: Sendable, Equatable {
        public let night: StayNight
        public let roomTypeID: Int64
        public let rooms: Int
        /// Sold: confirmed reservations.
        public let booked: Int
        /// Held for prepaid reservations waiting for their payment.
        public let held: Int
        public var free: Int { max(0, rooms - booked - held) }
    }

    let store: any StaysStore

    public init(store: any StaysStore) {
        self.store = store
    }

    public func arrivals(on night: StayNight) async throws -> [(StaysReservationRecord, StaysGuest)] {
        try await store.reservations(arrivingOn: night)
    }

    public func departures(on night: StayNight) async throws -> [(StaysReservationRecord, StaysGuest)] {
        try await store.reservations(leavingOn: night)
    }

    /// One row per night and room type, from `first` to `last` (at most 366 nights).
    public func occupancy(from first: StayNight, to last: StayNight, hotel: HotelSettings) async throws -> [Occupancy] {
        let calendar = hotel.calendar
        let count = first.days(to: last, in: calendar) + 1
        guard (1...366).contains(count) else {
            throw StaysValidationError(["to": "Give a range of 1 to 366 nights, ending on or after 'from'."])
        }
        let nights = (0..<count).map { first.adding(days: $0, in: calendar) }
        let counted = try await store.nights(
            nights, rooms: Dictionary(hotel.roomTypes.map { ($0.id, $0.rooms) }) { first, _ in first })
        return nights.flatMap { night in
            hotel.roomTypes.map { type in
                let unit = counted[type.id]?[night] ?? StaysNightCount(rooms: type.rooms, held: 0, sold: 0)
                return Occupancy(
                    night: night, roomTypeID: type.id, rooms: unit.rooms, booked: unit.sold, held: unit.held)
            }
        }
    }
}
