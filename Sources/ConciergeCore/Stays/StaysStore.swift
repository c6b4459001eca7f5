public import Foundation

/// A stays guest: the hotel profile of a platform account (one per account).
public struct StaysGuest: Sendable, Equatable {
    public let guestID: Int
    public let accountID: String
    public let username: String
    public let firstName: String
    public let lastName: String
    public let email: String
    public let phone: String

    public init(
        guestID: Int, accountID: String, username: String, firstName: String, lastName: String, email: String,
        phone: String
    ) {
        self.guestID = guestID
        self.accountID = accountID
        self.username = username
        self.firstName = firstName
        self.lastName = lastName
        self.email = email
        self.phone = phone
    }
}

/// A reservation as stored: the nights and the prices the server decided when it was made.
public struct StaysReservationRecord: Sendable, Equatable {
    public enum Status: String, Sendable {
        case confirmed
        case cancelled
    }

    public let id: Int
    public let guestID: Int
    public let accountID: String
    public let roomTypeID: Int64
    public let checkIn: StayNight
    public let checkOut: StayNight
    public let people: Int
    public let purpose: String
    public let accommodationCents: Int
    public let cityTaxCents: Int
    public let vatIncludedCents: Int
    public let firstNightCents: Int
    public let currency: String
    public let status: Status
    public let confirmationCode: String
    public let createdAt: Date
    public let cancelledAt: Date?
    public let refundedCents: Int
    public let chargedCents: Int

    public init(
        id: Int, guestID: Int, accountID: String, roomTypeID: Int64, checkIn: StayNight, checkOut: StayNight,
        people: Int, purpose: String, accommodationCents: Int, cityTaxCents: Int, vatIncludedCents: Int,
        firstNightCents: Int, currency: String, status: Status, confirmationCode: String, createdAt: Date,
        cancelledAt: Date?, refundedCents: Int, chargedCents: Int
    ) {
        self.id = id
        self.guestID = guestID
        self.accountID = accountID
        self.roomTypeID = roomTypeID
        self.checkIn = checkIn
        self.checkOut = checkOut
        self.people = people
        self.purpose = purpose
        self.accommodationCents = accommodationCents
        self.cityTaxCents = cityTaxCents
        self.vatIncludedCents = vatIncludedCents
        self.firstNightCents = firstNightCents
        self.currency = currency
        self.status = status
        self.confirmationCode = confirmationCode
        self.createdAt = createdAt
        self.cancelledAt = cancelledAt
        self.refundedCents = refundedCents
        self.chargedCents = chargedCents
    }

    public var totalCents: Int { accommodationCents + cityTaxCents }
}

/// A reservation the service has priced, before the store gives it an id.
public struct NewStaysReservation: Sendable, Equatable {
    public let guest: StaysGuest
    public let roomTypeID: Int64
    /// Rooms of the type the hotel has: no night may be booked more often.
    public let rooms: Int
    public let range: StayRange
    public let people: Int
    public let purpose: String
    public let quote: StayQuote
    public let currency: String
    public let confirmationCode: String
    public let idempotencyKey: String?
    public let createdAt: Date

    public init(
        guest: StaysGuest, roomTypeID: Int64, rooms: Int, range: StayRange, people: Int, purpose: String,
        quote: StayQuote, currency: String, confirmationCode: String, idempotencyKey: String?, createdAt: Date
    ) {
        self.guest = guest
        self.roomTypeID = roomTypeID
        self.rooms = rooms
        self.range = range
        self.people = people
        self.purpose = purpose
        self.quote = quote
        self.currency = currency
        self.confirmationCode = confirmationCode
        self.idempotencyKey = idempotencyKey
        self.createdAt = createdAt
    }
}

public enum StaysReserveOutcome: Sendable, Equatable {
    case created(StaysReservationRecord)
    /// The idempotency key was used before: the reservation it made.
    case replayed(StaysReservationRecord)
}

/// Persistence of the stays vertical. Inventory is a count per room type per night, taken by a
/// conditional write inside the reservation's transaction, so no night is ever sold more often
/// than the hotel has rooms, however many instances race.
public protocol StaysStore: Sendable {
    func guest(accountID: String) async throws -> StaysGuest?
    /// Inserts the account's guest profile, or returns the one it has.
    func ensureGuest(
        accountID: String, username: String, firstName: String, lastName: String, email: String, phone: String,
        at: Date
    ) async throws -> StaysGuest
    func updateGuest(guestID: Int, firstName: String?, lastName: String?, phone: String?) async throws -> StaysGuest?

    /// The most rooms of each type booked on any night in `nights`.
    func booked(nights: [StayNight]) async throws -> [Int64: Int]
    /// Takes one room of the type on every night, stores the reservation and queues `email`, in
    /// one transaction; throws `sold_out` (and writes nothing) when a night is full.
    func reserve(
        _ reservation: NewStaysReservation,
        email: @escaping @Sendable (StaysReservationRecord) throws -> OutboxMessage?
    ) async throws -> StaysReserveOutcome
    func reservations(guestID: Int) async throws -> [StaysReservationRecord]
    /// Confirmed reservations arriving (`checkIn`) or leaving (`checkOut`) on `night`, with their guests.
    func reservations(arrivingOn night: StayNight) async throws -> [(StaysReservationRecord, StaysGuest)]
    func reservations(leavingOn night: StayNight) async throws -> [(StaysReservationRecord, StaysGuest)]
    /// Rooms booked per room type per night, for the nights from `first` to `last`.
    func bookedPerNight(from first: StayNight, to last: StayNight) async throws -> [StayNight: [Int64: Int]]
    func reservation(id: Int) async throws -> StaysReservationRecord?
    /// Forgets idempotency keys made before `cutoff`; returns how many.
    func pruneIdempotencyKeys(before cutoff: Date) async throws -> Int
    /// Cancels a confirmed reservation and gives its nights back, in one transaction; nil when
    /// it was not confirmed any more (a concurrent cancel won).
    func cancel(
        id: Int, refundedCents: Int, chargedCents: Int, at: Date,
        email: @escaping @Sendable (StaysReservationRecord) throws -> OutboxMessage?
    ) async throws -> StaysReservationRecord?
}

extension ConciergeError {
    public static let staysSoldOut = ConciergeError(
        .conflict, code: "sold_out",
        message: "This room type is fully booked on at least one of these nights. Choose other dates or another room.")

    public static let staysReservationNotFound = ConciergeError(
        .notFound, code: "not_found", message: "There is no such reservation among yours.")
}
