extension Stays {
    /// `POST /stays/appointment`. Times are epoch milliseconds; the server counts nights in the
    /// hotel's time zone and ignores any price a client sends.
    public struct ReservationRequest: Codable, Sendable, Equatable {
        public var roomHotelId: Int64
        public var checkIn: Int64
        public var checkOut: Int64
        public var guests: Int
        public var children: Int?
        public var purpose: String?

        public init(
            roomHotelId: Int64, checkIn: Int64, checkOut: Int64, guests: Int, children: Int? = nil,
            purpose: String? = nil
        ) {
            self.roomHotelId = roomHotelId
            self.checkIn = checkIn
            self.checkOut = checkOut
            self.guests = guests
            self.children = children
            self.purpose = purpose
        }
    }

}

extension Stays.ReservationRequest: WireFieldHints {
    public static let fieldHints = [
        "checkIn": "a time in Unix epoch milliseconds, like 1805500800000 for 2027-03-20",
        "checkOut": "a time in Unix epoch milliseconds, like 1805587200000 for 2027-03-21",
    ]
}

extension Stays {
    /// The seed's `Customer`: the guest a reservation is for.
    public struct Customer: Codable, Sendable, Equatable {
        public let id: Int
        public let firstName: String
        public let lastName: String
        public let email: String
        public let phone: String

        public init(id: Int, firstName: String, lastName: String, email: String, phone: String) {
            self.id = id
            self.firstName = firstName
            self.lastName = lastName
            self.email = email
            self.phone = phone
        }
    }

    /// A reservation. `checkIn`/`checkOut` are the check-in and check-out times (epoch ms);
    /// `price` is the accommodation for the whole stay (VAT included), `taxPrice` the city tax,
    /// `totalPrice` their sum.
    public struct Reservation: Codable, Sendable, Equatable {
        public let id: Int
        public let guest: Customer
        public let roomHotel: RoomHotel
        public let checkIn: Int64
        public let checkOut: Int64
        public let purpose: String
        public let guests: Int
        public let price: Double
        public let taxPrice: Double
        public let totalPrice: Double
        /// `confirmed`, `cancelled`; for a prepaid room also `pending_payment` (held until
        /// `payment.payBy`), `expired` (the hold lapsed unpaid) and `refunded`.
        public let status: String
        public let confirmationCode: String
        public let cancellationPolicy: String
        public let currency: String
        public let priceCents: Int
        public let taxPriceCents: Int
        public let totalPriceCents: Int
        /// The VAT contained in `price`.
        public let vatIncludedCents: Int
        /// `pay_at_hotel` or `prepay`, as when it was made.
        public let paymentPolicy: String?
        /// The prepayment: how to pay while `pending_payment`, what was paid and refunded. Nil
        /// when the stay is paid at the hotel.
        public let payment: ReservationPayment?
        /// Given back from a prepayment on cancellation or a late payment, and charged under the
        /// cancellation policy (the first night of a late cancellation).
        public let refundedCents: Int?
        public let chargedCents: Int?

        public init(
            id: Int, guest: Customer, roomHotel: RoomHotel, checkIn: Int64, checkOut: Int64, purpose: String,
            guests: Int, price: Double, taxPrice: Double, totalPrice: Double, status: String,
            confirmationCode: String, cancellationPolicy: String, currency: String, priceCents: Int,
            taxPriceCents: Int, totalPriceCents: Int, vatIncludedCents: Int, paymentPolicy: String? = nil,
            payment: ReservationPayment? = nil, refundedCents: Int? = nil, chargedCents: Int? = nil
        ) {
            self.id = id
            self.guest = guest
            self.roomHotel = roomHotel
            self.checkIn = checkIn
            self.checkOut = checkOut
            self.purpose = purpose
            self.guests = guests
            self.price = price
            self.taxPrice = taxPrice
            self.totalPrice = totalPrice
            self.status = status
            self.confirmationCode = confirmationCode
            self.cancellationPolicy = cancellationPolicy
            self.currency = currency
            self.priceCents = priceCents
            self.taxPriceCents = taxPriceCents
            self.totalPriceCents = totalPriceCents
            self.vatIncludedCents = vatIncludedCents
            self.paymentPolicy = paymentPolicy
            self.payment = payment
            self.refundedCents = refundedCents
            self.chargedCents = chargedCents
        }
    }

    /// A prepaid reservation's payment through the platform's provider (sandbox, Mollie or
    /// Stripe).
    public struct ReservationPayment: Codable, Sendable, Equatable {
        /// The platform order's reference, `STY-…`.
        public let reference: String
        /// Where the guest pays; present while the reservation is `pending_payment`.
        public let checkoutUrl: String?
        /// The nights are held until then (epoch milliseconds); unpaid, they go back on sale.
        public let payBy: Int64
        /// `sandbox`, `mollie` or `stripe`.
        public let provider: String
        public let amount: Double
        public let amountCents: Int
        public let currency: String
        /// When the payment arrived (epoch milliseconds), or nil.
        public let paidAt: Int64?

        public init(
            reference: String, checkoutUrl: String?, payBy: Int64, provider: String, amount: Double, amountCents: Int,
            currency: String, paidAt: Int64?
        ) {
            self.reference = reference
            self.checkoutUrl = checkoutUrl
            self.payBy = payBy
            self.provider = provider
            self.amount = amount
            self.amountCents = amountCents
            self.currency = currency
            self.paidAt = paidAt
        }
    }

    /// `DELETE /stays/appointment/{id}`: what the cancellation refunded and charged.
    public struct Cancellation: Codable, Sendable, Equatable {
        public let reservation: Reservation
        public let refunded: Double
        public let charged: Double
        public let refundedCents: Int
        public let chargedCents: Int
        public let currency: String

        public init(
            reservation: Reservation, refunded: Double, charged: Double, refundedCents: Int, chargedCents: Int,
            currency: String
        ) {
            self.reservation = reservation
            self.refunded = refunded
            self.charged = charged
            self.refundedCents = refundedCents
            self.chargedCents = chargedCents
            self.currency = currency
        }
    }
}
