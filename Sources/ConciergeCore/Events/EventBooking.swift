public import Foundation

/// One order of seats for one show, the events part of a platform order (same id).
public struct EventBooking: Sendable, Equatable {
    public enum State: String, Sendable, CaseIterable {
        /// Seats held, waiting for the payment.
        case pending
        case confirmed
        case cancelled
        case refunded
        /// The hold lapsed unpaid.
        case expired
    }

    /// One ticket: a seat, its price and the secret a scanner checks.
    public struct Ticket: Sendable, Equatable {
        public let seatID: String
        public let priceCents: Int
        public let secret: String

        public init(seatID: String, priceCents: Int, secret: String) {
            self.seatID = seatID
            self.priceCents = priceCents
            self.secret = secret
        }
    }

    public let orderID: String
    public let reference: OrderReference
    /// The checkout's id (`session_id` of the return URL); unguessable, it opens the booking.
    public let sessionID: String
    public let showID: String
    public let accountID: String
    public let contactEmail: String
    public let holdID: String
    public var state: State
    public let paymentProvider: String
    public let paymentID: String
    public let paymentRecordID: String
    public let amountCents: Int
    public let currency: String
    public let expiresAt: Date
    public let createdAt: Date
    public let tickets: [Ticket]

    public init(
        orderID: String, reference: OrderReference, sessionID: String, showID: String, accountID: String,
        contactEmail: String, holdID: String, state: State, paymentProvider: String, paymentID: String,
        paymentRecordID: String, amountCents: Int, currency: String, expiresAt: Date, createdAt: Date,
        tickets: [Ticket]
    ) {
        self.orderID = orderID
        self.reference = reference
        self.sessionID = sessionID
        self.showID = showID
        self.accountID = accountID
        self.contactEmail = contactEmail
        self.holdID = holdID
        self.state = state
        self.paymentProvider = paymentProvider
        self.paymentID = paymentID
        self.paymentRecordID = paymentRecordID
        self.amountCents = amountCents
        self.currency = currency
        self.expiresAt = expiresAt
        self.createdAt = createdAt
        self.tickets = tickets
    }
}
