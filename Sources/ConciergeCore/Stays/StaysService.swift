import Foundation

/// Rooms, reservations and cancellations of one hotel: the rules and prices live here, the
/// inventory invariant in the store's transaction. Prepaid reservations go through the
/// platform's holds, orders and payments (`StaysService+Payments`).
public struct StaysService: Sendable {
    /// The vertical's name in orders and payments.
    public static let vertical = "stays"
    /// `STY-` and ten digits, in the order reference space every vertical shares.
    static let references = OrderReferenceGenerator(prefix: "STY-")

    public struct RoomOffer: Sendable, Equatable {
        public let roomType: HotelSettings.RoomType
        public let quote: StayQuote
        public let available: Int
    }

    public enum When: String, Sendable {
        case upcoming
        case past
    }

    /// How prepayments run: how long the nights are held while the guest pays, and where the
    /// provider sends the guest back and reports the payment.
    public struct PrepaySettings: Sendable, Equatable {
        public var holdMinutes: Int
        public var publicURL: String

        public init(holdMinutes: Int = 30, publicURL: String) {
            self.holdMinutes = holdMinutes
            self.publicURL = publicURL
        }
    }

    public let hotels: any StaysHotelSource
    public let cancellation: StayCancellationPolicy
    let store: any StaysStore
    let holds: any HoldStore
    let orders: any OrderStore
    let payments: any PaymentProvider
    /// The platform's order lifecycle: payments, expiry, cancellations and refunds of prepaid stays.
    let lifecycle: OrderLifecycle
    let prepay: PrepaySettings
    /// What one guest may hold (`GuestLimits`), and the platform's checker with its numbers.
    let guestLimits: GuestLimits
    let limits: OrderLimitChecker
    let messages: StaysMessages
    let clock: any TimeSource
    let random: any RandomSource

    public init(
        hotels: any StaysHotelSource, cancellation: StayCancellationPolicy, store: any StaysStore,
        holds: any HoldStore, orders: any OrderStore, payments: any PaymentProvider, prepay: PrepaySettings,
        guestLimits: GuestLimits, orderLimits: any OrderLimitStore, lifecycle: any OrderLifecycleStore,
        templates: any MessageTemplates, clock: any TimeSource, random: any RandomSource
    ) {
        self.lifecycle = OrderLifecycle(
            store: lifecycle, holds: holds, payments: payments, clock: clock, random: random)
        self.guestLimits = guestLimits
        self.limits = OrderLimitChecker(limits: guestLimits.orders, store: orderLimits, clock: clock, random: random)
        self.hotels = hotels
        self.cancellation = cancellation
        self.store = store
        self.holds = holds
        self.orders = orders
        self.payments = payments
        self.prepay = prepay
        self.messages = StaysMessages(policy: cancellation, templates: templates)
        self.clock = clock
        self.random = random
    }

    /// The hotel as it is now (settings, room types, rates, closures).
    public func hotel() async throws -> HotelSettings { try await hotels.current() }

    public func today(in hotel: HotelSettings) -> StayNight { StayNight(clock.now, in: hotel.calendar) }

    /// The party size a request names: `guests` adults (1 to the hotel's maximum) and
    /// optional children.
    public func people(guests: Int, children: Int?, hotel: HotelSettings, field: String = "guests")
        throws(StaysValidationError) -> Int
    {
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
    public func availableRooms(range: StayRange, people: Int, hotel: HotelSettings) async throws -> [RoomOffer] {
        let candidates = hotel.roomTypes.filter {
            $0.capacity >= people && $0.rooms > 0 && hotel.refusal(of: $0, range: range) == nil
        }
        guard !candidates.isEmpty else { return [] }
        let free = try await store.free(
            range.nights, rooms: Dictionary(candidates.map { ($0.id, $0.rooms) }) { first, _ in first })
        return candidates.compactMap { type in
            let free = free[type.id] ?? type.rooms
            guard free > 0 else { return nil }
            return RoomOffer(
                roomType: type, quote: StayQuote(roomType: type, range: range, people: people, hotel: hotel),
                available: free)
        }
    }

    // MARK: Reservations

    /// Paid at the hotel: confirmed at once, for a guest with a verified email. Prepaid: the
    /// nights are held and a payment opened; the reservation is confirmed when the payment
    /// arrives (`applyPayment`). Either way the guest's limits are checked first (`GuestLimits`);
    /// `clientIP` counts the request against the per-network limit. `requestHash` is the body's
    /// fingerprint: a key sent again with another body is refused with 422.
    public func reserve(
        guest: StaysGuest, roomTypeID: Int64, range: StayRange, people: Int, purpose: String?, idempotencyKey: String?,
        requestHash: String? = nil, emailVerified: Bool, clientIP: String, hotel: HotelSettings
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
        do {
            try await checkLimits(
                guest: guest, type: type, range: range, emailVerified: emailVerified, clientIP: clientIP, hotel: hotel)
        } catch {
            // A repeat gets its first answer, even when the limits would refuse a new
            // reservation. Looked up only on a refusal: otherwise the reservation's own
            // transaction finds the key taken and answers the earlier one, so a keyed request
            // costs no read of its own.
            if let key = idempotencyKey,
                let earlier = try await store.reservation(
                    accountID: guest.accountID, idempotencyKey: key, requestHash: requestHash)
            {
                return .replayed(earlier)
            }
            throw error
        }
        let quote = StayQuote(roomType: type, range: range, people: people, hotel: hotel)
        if type.paymentPolicy == .prepay {
            return try await reservePrepaid(
                guest: guest, type: type, range: range, people: people, purpose: purpose, quote: quote,
                idempotencyKey: idempotencyKey, requestHash: requestHash, hotel: hotel)
        }
        let reservation = NewStaysReservation(
            guest: guest, roomTypeID: type.id, rooms: type.rooms, range: range, people: people, purpose: purpose,
            quote: quote, currency: hotel.currency, confirmationCode: confirmationCode(),
            idempotencyKey: idempotencyKey, createdAt: clock.now, requestHash: requestHash)
        let messages = self.messages
        return try await store.reserve(reservation, cap: nil) { record in
            try messages.confirmation(record, guest: guest, hotel: hotel)
        }
    }

    /// A guest's reservations: upcoming (confirmed or waiting for the payment, check-out still
    /// ahead) by check-in ascending, past (over, cancelled, lapsed or refunded) by check-in
    /// descending; both, upcoming first, when `when` is nil.
    public func reservations(guest: StaysGuest, when: When?, hotel: HotelSettings) async throws
        -> [StaysReservationRecord]
    {
        let all = try await store.reservations(guestID: guest.guestID)
        let today = self.today(in: hotel)
        let isUpcoming = { (record: StaysReservationRecord) in record.isActive && record.checkOut > today }
        let upcoming = all.filter(isUpcoming).sorted { ($0.checkIn, $0.id) < ($1.checkIn, $1.id) }
        let past = all.filter { !isUpcoming($0) }.sorted { ($0.checkIn, $0.id) > ($1.checkIn, $1.id) }
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
