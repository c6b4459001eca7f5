public import Foundation

/// Rooms, reservations and cancellations of one hotel: the rules and prices live here, the
/// inventory invariant in the store's transaction.
public struct StaysService: Sendable {
    public struct RoomOffer: Sendable, Equatable {
        public let roomType: HotelSettings.RoomType
        public let quote: StayQuote
        public let available: Int
    }

    public enum When: String, Sendable {
        case upcoming
        case past
    }

    public let hotel: HotelSettings
    public let cancellation: StayCancellationPolicy
    let store: any StaysStore
    let messages: StaysMessages
    let clock: any TimeSource
    let random: any RandomSource

    public init(
        hotel: HotelSettings, cancellation: StayCancellationPolicy, store: any StaysStore,
        templates: any MessageTemplates, clock: any TimeSource, random: any RandomSource
    ) {
        self.hotel = hotel
        self.cancellation = cancellation
        self.store = store
        self.messages = StaysMessages(hotel: hotel, policy: cancellation, templates: templates)
        self.clock = clock
        self.random = random
    }

    public var today: StayNight { StayNight(clock.now, in: hotel.calendar) }

    /// The party size a request names: `guests` adults (1 to the hotel's maximum) and
    /// optional children.
    public func people(guests: Int, children: Int?, field: String = "guests") throws(StaysValidationError) -> Int {
        guard (1...hotel.maxGuests).contains(guests) else {
            throw StaysValidationError([field: "Choose between 1 and \(hotel.maxGuests) guests."])
        }
        let children = children ?? 0
        guard (0...hotel.maxGuests).contains(children), guests + children <= hotel.maxGuests else {
            throw StaysValidationError(["children": "A party is at most \(hotel.maxGuests) people."])
        }
        return guests + children
    }

    // MARK: Rooms

    /// Every room type that holds `people` and has a free room on every night of `range`.
    public func availableRooms(range: StayRange, people: Int) async throws -> [RoomOffer] {
        let booked = try await store.booked(nights: range.nights)
        return hotel.roomTypes.compactMap { type in
            guard type.capacity >= people, hotel.refusal(of: type, range: range) == nil else { return nil }
            let free = type.rooms - (booked[type.id] ?? 0)
            guard free > 0 else { return nil }
            return RoomOffer(
                roomType: type, quote: StayQuote(roomType: type, range: range, people: people, hotel: hotel),
                available: free)
        }
    }

    // MARK: Reservations

    public func reserve(
        guest: StaysGuest, roomTypeID: Int64, range: StayRange, people: Int, purpose: String?, idempotencyKey: String?
    ) async throws -> StaysReserveOutcome {
        guard let type = hotel.roomType(id: roomTypeID) else {
            throw StaysValidationError(["roomHotelId": "There is no room type \(roomTypeID) in this hotel."])
        }
        guard people <= type.capacity else {
            throw StaysValidationError(["guests": "The \(type.type) room holds at most \(type.capacity) people."])
        }
        if let refusal = hotel.refusal(of: type, range: range) {
            throw StaysValidationError(["checkIn": refusal])
        }
        let purpose = (purpose ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard purpose.count <= 200 else {
            throw StaysValidationError(["purpose": "Describe the purpose in at most 200 characters."])
        }
        if let key = idempotencyKey, key.isEmpty || key.count > 255 {
            throw ConciergeError(
                .invalidInput, code: "invalid_idempotency_key",
                message: "The Idempotency-Key header must have 1 to 255 characters.")
        }
        let reservation = NewStaysReservation(
            guest: guest, roomTypeID: type.id, rooms: type.rooms, range: range, people: people, purpose: purpose,
            quote: StayQuote(roomType: type, range: range, people: people, hotel: hotel), currency: hotel.currency,
            confirmationCode: confirmationCode(), idempotencyKey: idempotencyKey, createdAt: clock.now)
        let messages = self.messages
        return try await store.reserve(reservation) { record in
            try messages.confirmation(record, guest: guest)
        }
    }

    /// A guest's reservations: upcoming (not cancelled, check-out still ahead) by check-in
    /// ascending, past (over or cancelled) by check-in descending; both, upcoming first, when
    /// `when` is nil.
    public func reservations(guest: StaysGuest, when: When?) async throws -> [StaysReservationRecord] {
        let all = try await store.reservations(guestID: guest.guestID)
        let today = self.today
        let upcoming = all.filter { $0.status == .confirmed && $0.checkOut > today }
            .sorted { ($0.checkIn, $0.id) < ($1.checkIn, $1.id) }
        let past = all.filter { !($0.status == .confirmed && $0.checkOut > today) }
            .sorted { ($0.checkIn, $0.id) > ($1.checkIn, $1.id) }
        switch when {
        case .upcoming: return upcoming
        case .past: return past
        case nil: return upcoming + past
        }
    }

    public func reservation(id: Int, guest: StaysGuest) async throws -> StaysReservationRecord {
        guard let record = try await store.reservation(id: id), record.accountID == guest.accountID else {
            throw ConciergeError.staysReservationNotFound
        }
        return record
    }

    /// Cancels under the policy. Pay-at-hotel stays have nothing to refund; a late cancellation
    /// is charged the first night.
    public func cancel(id: Int, guest: StaysGuest) async throws -> StaysReservationRecord {
        let record = try await reservation(id: id, guest: guest)
        guard record.status == .confirmed else {
            throw ConciergeError(
                .conflict, code: "already_cancelled", message: "This reservation was cancelled already.")
        }
        let now = clock.now
        let checkInAt = record.checkIn.date(hour: hotel.checkInHour, in: hotel.calendar)
        let charged: Int
        switch try cancellation.outcome(checkInAt: checkInAt, firstNightCents: record.firstNightCents, now: now) {
        case .free: charged = 0
        case .firstNightCharged(let cents): charged = cents
        }
        let messages = self.messages
        guard
            let cancelled = try await store.cancel(
                id: id, refundedCents: 0, chargedCents: charged, at: now,
                email: { try messages.cancellation($0, guest: guest) })
        else {
            throw ConciergeError(
                .conflict, code: "already_cancelled", message: "This reservation was cancelled already.")
        }
        return cancelled
    }

    /// A retry comes within minutes; a key is kept a day, then forgotten.
    public func pruneIdempotencyKeys() async throws -> Int {
        try await store.pruneIdempotencyKeys(before: clock.now.addingTimeInterval(-86_400))
    }

    /// Eight characters from an alphabet without look-alikes (no 0/O, 1/I).
    func confirmationCode() -> String {
        let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        return String(random.bytes(8).map { alphabet[Int($0) % alphabet.count] })
    }
}
