public import Foundation

/// Where a ride booking stands. Happy path: awaiting_payment → confirmed → (driver_assigned →
/// en_route → arrived → on_board →) completed.
public enum BookingState: String, Sendable, Codable, CaseIterable {
    case awaitingPayment = "awaiting_payment"
    case confirmed
    case driverAssigned = "driver_assigned"
    case enRoute = "en_route"
    case arrived
    case onBoard = "on_board"
    case completed
    case expired
    case cancelled
    case refunded
    case noShow = "no_show"
}

/// A pickup or destination as booked: the provider's place and what the customer saw.
public struct BookedPlace: Sendable, Equatable {
    public let placeId: String
    public let description: String
    public let name: String
    public let kind: PlaceKind
    public let timeZone: String

    public init(placeId: String, description: String, name: String, kind: PlaceKind, timeZone: String) {
        self.placeId = placeId
        self.description = description
        self.name = name
        self.kind = kind
        self.timeZone = timeZone
    }
}

/// A ride booking with its quote and payment.
public struct Booking: Sendable, Equatable {
    public let id: String
    /// `VRM-` and digits: short, for people; not a secret.
    public let reference: String
    /// Unguessable; required to see details on the public return page.
    public let publicSecret: String
    public let customerID: String
    public let pickup: BookedPlace
    public let destination: BookedPlace
    public let pickupAt: Date
    public let passengers: Int
    public let vehicleClass: VehicleClass
    public let flightNumber: String?
    public let priceCents: Int
    public let currency: String
    public let distanceMeters: Int
    public let durationSeconds: Int
    public var state: BookingState
    /// The quote (and the unpaid booking) lapses at this time.
    public let quoteExpiresAt: Date
    public let createdAt: Date
    public var paymentProvider: String?
    public var paymentID: String?
    public var checkoutURL: String?
    /// The provider's last known payment status.
    public var paymentStatus: PaymentStatus?
    /// Set once a chauffeur is assigned.
    public var driver: Driver?
    /// The payment's id in the platform ledger (`payments.id`), once it has one.
    public var paymentRecordID: String?

    public init(
        id: String, reference: String, publicSecret: String, customerID: String, pickup: BookedPlace,
        destination: BookedPlace, pickupAt: Date, passengers: Int, vehicleClass: VehicleClass, flightNumber: String?,
        priceCents: Int, currency: String, distanceMeters: Int, durationSeconds: Int, state: BookingState,
        quoteExpiresAt: Date, createdAt: Date, paymentProvider: String?, paymentID: String?, checkoutURL: String?,
        paymentStatus: PaymentStatus?, driver: Driver? = nil, paymentRecordID: String? = nil
    ) {
        self.id = id
        self.reference = reference
        self.publicSecret = publicSecret
        self.customerID = customerID
        self.pickup = pickup
        self.destination = destination
        self.pickupAt = pickupAt
        self.passengers = passengers
        self.vehicleClass = vehicleClass
        self.flightNumber = flightNumber
        self.priceCents = priceCents
        self.currency = currency
        self.distanceMeters = distanceMeters
        self.durationSeconds = durationSeconds
        self.state = state
        self.quoteExpiresAt = quoteExpiresAt
        self.createdAt = createdAt
        self.paymentProvider = paymentProvider
        self.paymentID = paymentID
        self.checkoutURL = checkoutURL
        self.paymentStatus = paymentStatus
        self.driver = driver
        self.paymentRecordID = paymentRecordID
    }
}

/// One entry of a booking's event log: what happened, when, and who did it.
public struct BookingEvent: Sendable, Equatable {
    public let bookingID: String
    public let at: Date
    /// e.g. "created", "confirmed", "expired", "refunded", "cancelled".
    public let type: String
    /// "customer:cus_…", "system", "provider:mollie", "admin".
    public let actor: String
    public let detail: String

    public init(bookingID: String, at: Date, type: String, actor: String, detail: String) {
        self.bookingID = bookingID
        self.at = at
        self.type = type
        self.actor = actor
        self.detail = detail
    }
}
