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
    public enum Status: String, Sendable, CaseIterable {
        /// Prepaid: the nights are held until `prepayment.expiresAt`, waiting for the payment.
        case pendingPayment = "pending_payment"
        case confirmed
        case cancelled
        /// Prepaid, and the hold lapsed unpaid: the nights went back on sale.
        case expired
        /// Paid after the nights went to someone else (or after it was cancelled): refunded in full.
        case refunded
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
    public let paymentPolicy: HotelSettings.PaymentPolicy
    /// The platform order, hold and payment of a prepaid reservation; nil when paid at the hotel.
    public let prepayment: StaysPrepayment?
    /// When the prepayment arrived (nil at the hotel, and until it is paid).
    public let paidAt: Date?

    public init(
        id: Int, guestID: Int, accountID: String, roomTypeID: Int64, checkIn: StayNight, checkOut: StayNight,
        people: Int, purpose: String, accommodationCents: Int, cityTaxCents: Int, vatIncludedCents: Int,
        firstNightCents: Int, currency: String, status: Status, confirmationCode: String, createdAt: Date,
        cancelledAt: Date?, refundedCents: Int, chargedCents: Int,
        paymentPolicy: HotelSettings.PaymentPolicy = .payAtHotel,
        prepayment: StaysPrepayment? = nil, paidAt: Date? = nil
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
        self.paymentPolicy = paymentPolicy
        self.prepayment = prepayment
        self.paidAt = paidAt
    }

    public var totalCents: Int { accommodationCents + cityTaxCents }

    /// Still ahead or under way for the guest: confirmed, or held waiting for the payment.
    public var isActive: Bool { status == .confirmed || status == .pendingPayment }
}

/// A prepaid reservation's part of the platform: its order (`STY-…`), the hold on its nights
/// and the payment that buys them.
public struct StaysPrepayment: Sendable, Equatable {
    public let orderID: String
    /// The order's reference code, `STY-…`.
    public let reference: String
    /// Unguessable: opens the payment's return page.
    public let returnSecret: String
    public let holdID: String
    /// "sandbox", "mollie" or "stripe".
    public let provider: String
    /// The provider's payment id (`sbx_…`, `tr_…`, `cs_…`).
    public let providerPaymentID: String
    /// The payments ledger's id (`pay_…`).
    public let paymentRecordID: String
    public let checkoutURL: String
    /// The hold lapses, and the checkout stops accepting the payment, at this time.
    public let expiresAt: Date

    public init(
        orderID: String, reference: String, returnSecret: String, holdID: String, provider: String,
        providerPaymentID: String, paymentRecordID: String, checkoutURL: String, expiresAt: Date
    ) {
        self.orderID = orderID
        self.reference = reference
        self.returnSecret = returnSecret
        self.holdID = holdID
        self.provider = provider
        self.providerPaymentID = providerPaymentID
        self.paymentRecordID = paymentRecordID
        self.checkoutURL = checkoutURL
        self.expiresAt = expiresAt
    }
}

/// A reservation the service has priced, before the store gives it an id.
public struct NewStaysReservation: Sendable, Equatable {
    public let guest: StaysGuest
    public let roomTypeID: Int64
    /// Rooms of the type the hotel has: a night's inventory unit starts with this capacity.
    public let rooms: Int
    public let range: StayRange
    public let people: Int
    public let purpose: String
    public let quote: StayQuote
    public let currency: String
    public let confirmationCode: String
    public let idempotencyKey: String?
    /// The request's body fingerprint (`IdempotencyFingerprint`), kept with the key.
    public let requestHash: String?
    public let createdAt: Date
    /// Prepaid: the order, payment and hold to write with it (the nights are held, not sold).
    public let prepayment: NewStaysPrepayment?

    public init(
        guest: StaysGuest, roomTypeID: Int64, rooms: Int, range: StayRange, people: Int, purpose: String,
        quote: StayQuote, currency: String, confirmationCode: String, idempotencyKey: String?, createdAt: Date,
        prepayment: NewStaysPrepayment? = nil, requestHash: String? = nil
    ) {
        self.requestHash = requestHash
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
        self.prepayment = prepayment
    }

    /// The inventory units of its nights, in key order.
    public var unitKeys: [String] {
        range.nights.map { StaysUnits.key(roomType: roomTypeID, night: $0) }.sorted()
    }
}

/// What a prepaid reservation writes in its own transaction besides itself.
public struct NewStaysPrepayment: Sendable, Equatable {
    public let summary: StaysPrepayment
    public let order: Order
    public let event: OrderEvent
    public let payment: PaymentRecord
    public let hold: NewHold

    public init(summary: StaysPrepayment, order: Order, event: OrderEvent, payment: PaymentRecord, hold: NewHold) {
        self.summary = summary
        self.order = order
        self.event = event
        self.payment = payment
        self.hold = hold
    }
}

public enum StaysReserveOutcome: Sendable, Equatable {
    /// Made now; `roomsLeft` is the type's free rooms on the stay's fullest night after it, when
    /// the store learned it while selling (nil: ask `StaysService.freeRooms`).
    case created(StaysReservationRecord, roomsLeft: Int?)
    /// The idempotency key was used before: the reservation it made.
    case replayed(StaysReservationRecord)
}

/// A reservation's state change and what it writes in the same transaction.
public struct StaysTransition: Sendable {
    public let reservationID: Int
    public let from: [StaysReservationRecord.Status]
    public let to: StaysReservationRecord.Status
    public let at: Date
    /// Set when the change decides them (a cancellation, a refund).
    public let refundedCents: Int?
    public let chargedCents: Int?
    /// The payment arrived (sets `paidAt`).
    public let paid: Bool
    /// A confirmed reservation's nights go back on sale (its units' `sold` shrinks by one each).
    public let returnSoldNights: Bool
    /// The platform order's new state and log line (prepaid reservations).
    public let orderEvent: OrderEvent?
    public let refund: RefundRecord?
    public let paymentStatus: PaymentStatus?
    public let email: @Sendable (StaysReservationRecord) throws -> OutboxMessage?

    public init(
        reservationID: Int, from: [StaysReservationRecord.Status], to: StaysReservationRecord.Status, at: Date,
        refundedCents: Int? = nil, chargedCents: Int? = nil, paid: Bool = false, returnSoldNights: Bool = false,
        orderEvent: OrderEvent? = nil, refund: RefundRecord? = nil, paymentStatus: PaymentStatus? = nil,
        email: @escaping @Sendable (StaysReservationRecord) throws -> OutboxMessage? = { _ in nil }
    ) {
        self.reservationID = reservationID
        self.from = from
        self.to = to
        self.at = at
        self.refundedCents = refundedCents
        self.chargedCents = chargedCents
        self.paid = paid
        self.returnSoldNights = returnSoldNights
        self.orderEvent = orderEvent
        self.refund = refund
        self.paymentStatus = paymentStatus
        self.email = email
    }
}

/// A room type's night as the platform's inventory counts it.
public struct StaysNightCount: Sendable, Equatable {
    public let rooms: Int
    public let held: Int
    public let sold: Int

    public init(rooms: Int, held: Int, sold: Int) {
        self.rooms = rooms
        self.held = held
        self.sold = sold
    }

    public var free: Int { max(0, rooms - held - sold) }
}

/// The inventory unit of one room type on one night, in the platform's inventory (holds,
/// late payments and the expiry job work on it like on a seat).
public enum StaysUnits {
    public static func key(roomType: Int64, night: StayNight) -> String { "stays:room\(roomType):\(night)" }
    /// Every unit of a room type starts with this (no `_` or `%`, so it is a literal LIKE prefix).
    public static func prefix(roomType: Int64) -> String { "stays:room\(roomType):" }

    /// The room type and night of a key, or nil when it is no stays unit.
    public static func parse(_ key: String) -> (roomType: Int64, night: StayNight)? {
        let parts = key.split(separator: ":")
        guard parts.count == 3, parts[0] == "stays", parts[1].hasPrefix("room"),
            let type = Int64(parts[1].dropFirst(4)), let night = StayNight(String(parts[2]))
        else { return nil }
        return (type, night)
    }
}

/// Persistence of the stays vertical. Inventory is the platform's: a unit per room type per
/// night whose held plus sold never passes its capacity, taken by a conditional write inside the
/// reservation's transaction, so no night is ever sold more often than the hotel has rooms,
/// however many instances race.
public protocol StaysStore: Sendable {
    func guest(accountID: String) async throws -> StaysGuest?
    /// Inserts the account's guest profile, or returns the one it has.
    func ensureGuest(
        accountID: String, username: String, firstName: String, lastName: String, email: String, phone: String,
        at: Date
    ) async throws -> StaysGuest
    func updateGuest(guestID: Int, firstName: String?, lastName: String?, phone: String?) async throws -> StaysGuest?

    /// Rooms of each type in `rooms` free on every one of `nights` (the fewest free on any of
    /// them); a night nobody has booked yet has the type's count in `rooms` free. The search's
    /// one query: counted in the database, one row per room type back.
    func free(_ nights: [StayNight], rooms: [Int64: Int]) async throws -> [Int64: Int]
    /// Each night of each room type as counted, for the types in `rooms` (their current room
    /// counts, for nights nobody has booked yet).
    func nights(_ nights: [StayNight], rooms: [Int64: Int]) async throws -> [Int64: [StayNight: StaysNightCount]]
    /// Takes one room of the type on every night — sold when paid at the hotel, held for a
    /// prepayment (with its order and payment) — stores the reservation and queues `email`, in
    /// one transaction; throws `sold_out` (and writes nothing) when a night is full, and the
    /// cap's 429 (writing nothing) when a prepaid order would pass the account's unpaid cap.
    func reserve(
        _ reservation: NewStaysReservation, cap: OpenOrderCap?,
        email: @escaping @Sendable (StaysReservationRecord) throws -> OutboxMessage?
    ) async throws -> StaysReserveOutcome
    /// The reservation an account's idempotency key made, if it is still kept. Throws 422
    /// `idempotency_key_reused` when the key was first sent with another body than `requestHash`.
    func reservation(accountID: String, idempotencyKey: String, requestHash: String?) async throws
        -> StaysReservationRecord?
    func reservations(guestID: Int) async throws -> [StaysReservationRecord]
    /// Confirmed reservations arriving (`checkIn`) or leaving (`checkOut`) on `night`, with their guests.
    func reservations(arrivingOn night: StayNight) async throws -> [(StaysReservationRecord, StaysGuest)]
    func reservations(leavingOn night: StayNight) async throws -> [(StaysReservationRecord, StaysGuest)]
    func reservation(id: Int) async throws -> StaysReservationRecord?
    func reservation(orderID: String) async throws -> StaysReservationRecord?
    func reservation(returnSecret: String) async throws -> StaysReservationRecord?
    func guest(guestID: Int) async throws -> StaysGuest?
    /// Prepaid reservations still waiting for their payment whose hold lapsed by `now`.
    func lapsedPendingReservations(now: Date, limit: Int) async throws -> [StaysReservationRecord]
    /// Forgets idempotency keys made before `cutoff`; returns how many.
    func pruneIdempotencyKeys(before cutoff: Date) async throws -> Int
    /// Applies the change when the reservation is in one of its `from` states, with everything
    /// it writes, in one transaction; nil when it was not (someone else moved it first).
    func apply(_ transition: StaysTransition) async throws -> StaysReservationRecord?
}

extension ConciergeError {
    public static let staysSoldOut = ConciergeError(
        .conflict, code: "sold_out",
        message: "This room type is fully booked on at least one of these nights. Choose other dates or another room.")

    public static let staysAlreadyCancelled = ConciergeError(
        .conflict, code: "already_cancelled", message: "This reservation was cancelled already.")

    public static let staysReservationNotFound = ConciergeError(
        .notFound, code: "not_found", message: "There is no such reservation among yours.")
}
