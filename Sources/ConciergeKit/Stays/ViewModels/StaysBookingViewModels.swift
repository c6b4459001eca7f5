public import ConciergeModels
public import Foundation
public import Observation

extension Stays {
    /// The state behind the search and room list: dates, party, and the free room types.
    ///
    /// ```swift
    /// let search = Stays.RoomsViewModel(api: api)
    /// search.checkIn = arrival; search.checkOut = departure; search.guests = 2
    /// await search.search()    // search.rooms
    /// ```
    @Observable @MainActor public final class RoomsViewModel {
        public var checkIn: Date
        public var checkOut: Date
        public var guests = 2
        public var children = 0
        public private(set) var rooms: [Stays.RoomHotel] = []
        public private(set) var isLoading = false
        public private(set) var errorMessage: String?
        public private(set) var sessionExpired = false
        private let api: StaysAPI

        public init(api: StaysAPI, checkIn: Date = Date().addingTimeInterval(86_400), nights: Int = 1) {
            self.api = api
            self.checkIn = checkIn
            self.checkOut = checkIn.addingTimeInterval(Double(nights) * 86_400)
        }

        public func search() async {
            isLoading = true
            defer { isLoading = false }
            switch await api.roomsAvailable(
                checkIn: String(Stays.millis(checkIn)), checkOut: String(Stays.millis(checkOut)), guests: guests,
                children: children > 0 ? children : nil)
            {
            case .success(let rooms):
                self.rooms = rooms
                errorMessage = rooms.isEmpty ? "No room is free for these dates." : nil
            case .failure(let failure):
                rooms = []
                sessionExpired = failure.isUnauthorized
                errorMessage = failure.message
            }
        }
    }

    /// The state behind the confirmation screen: the chosen room, the stay, and the
    /// reservation once made. A retry of the same confirmation reuses its idempotency key.
    ///
    /// ```swift
    /// let confirm = Stays.ConfirmationViewModel(api: api, room: room, checkIn: arrival, checkOut: departure, guests: 2)
    /// await confirm.confirm()   // confirm.reservation?.confirmationCode
    /// ```
    @Observable @MainActor public final class ConfirmationViewModel {
        public let room: Stays.RoomHotel
        public let checkIn: Date
        public let checkOut: Date
        public let guests: Int
        public var purpose = ""
        public private(set) var reservation: Stays.Reservation?
        public private(set) var isLoading = false
        public private(set) var errorMessage: String?
        public private(set) var soldOut = false
        private let api: StaysAPI
        private let idempotencyKey = UUID().uuidString

        public init(api: StaysAPI, room: Stays.RoomHotel, checkIn: Date, checkOut: Date, guests: Int) {
            self.api = api
            self.room = room
            self.checkIn = checkIn
            self.checkOut = checkOut
            self.guests = guests
        }

        public func confirm() async {
            isLoading = true
            defer { isLoading = false }
            let request = Stays.ReservationRequest(
                roomHotelId: room.id, checkIn: Stays.millis(checkIn), checkOut: Stays.millis(checkOut), guests: guests,
                purpose: purpose.isEmpty ? nil : purpose)
            switch await api.makeReservation(request, idempotencyKey: idempotencyKey) {
            case .success(let reservation):
                self.reservation = reservation
                errorMessage = nil
            case .failure(let failure):
                if case .soldOut = failure { soldOut = true }
                errorMessage = failure.message
            }
        }
    }

    /// The state behind "My reservations": upcoming and past, and deleting one in place.
    ///
    /// ```swift
    /// let mine = Stays.MyReservationsViewModel(api: api)
    /// await mine.load()
    /// await mine.delete(mine.upcoming[0])   // it moves to past as cancelled
    /// ```
    @Observable @MainActor public final class MyReservationsViewModel {
        public private(set) var upcoming: [Stays.Reservation] = []
        public private(set) var past: [Stays.Reservation] = []
        public private(set) var isLoading = false
        public private(set) var errorMessage: String?
        /// What the last deletion charged, e.g. a late cancellation's first night.
        public private(set) var lastCancellation: Stays.Cancellation?
        public private(set) var sessionExpired = false
        private let api: StaysAPI

        public init(api: StaysAPI) { self.api = api }

        public func load() async {
            guard let guestId = api.signedIn?.guestId else {
                sessionExpired = true
                return
            }
            isLoading = true
            defer { isLoading = false }
            async let upcoming = api.reservations(guestId: guestId, when: .upcoming)
            async let past = api.reservations(guestId: guestId, when: .past)
            switch (await upcoming, await past) {
            case (.success(let upcoming), .success(let past)):
                self.upcoming = upcoming
                self.past = past
                errorMessage = nil
            case (.failure(let failure), _), (_, .failure(let failure)):
                sessionExpired = failure.isUnauthorized
                errorMessage = failure.message
            }
        }

        public func delete(_ reservation: Stays.Reservation) async {
            switch await api.deleteReservation(id: reservation.id) {
            case .success(let cancellation):
                lastCancellation = cancellation
                upcoming.removeAll { $0.id == reservation.id }
                past.insert(cancellation.reservation, at: 0)
                errorMessage = nil
            case .failure(let failure):
                errorMessage = failure.message
            }
        }
    }

    /// Epoch milliseconds, as the seed's API counts time.
    public static func millis(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }
}

extension StaysFailure {
    /// True when the session ended: show the login screen.
    public var isUnauthorized: Bool {
        if case .unauthorized = self { return true }
        return false
    }
}
