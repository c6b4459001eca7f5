/// How many rooms of a reservation's type are still free on every one of its nights: what a
/// reservation's `roomHotel.available` says, counted like the room search counts it.
extension StaysService {
    public func freeRooms(for record: StaysReservationRecord, hotel: HotelSettings) async throws -> Int {
        guard let type = hotel.roomType(id: record.roomTypeID), type.rooms > 0 else { return 0 }
        let nights = (0..<max(0, record.checkOut.dayNumber - record.checkIn.dayNumber)).map {
            StayNight(dayNumber: record.checkIn.dayNumber + $0)
        }
        guard !nights.isEmpty else { return 0 }
        let free = try await store.free(nights, rooms: [type.id: type.rooms])
        return max(0, free[type.id] ?? type.rooms)
    }

    /// `freeRooms` of each reservation, by reservation id.
    public func freeRooms(for records: [StaysReservationRecord], hotel: HotelSettings) async throws -> [Int: Int] {
        var free: [Int: Int] = [:]
        for record in records { free[record.id] = try await freeRooms(for: record, hotel: hotel) }
        return free
    }
}
