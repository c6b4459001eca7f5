extension Events {
    /// `POST /api/seat-checkout`: named seats (`specificSeatIds`), or the best `quantity`
    /// adjacent seats, optionally in one `section`.
    public struct SeatCheckoutRequest: Codable, Sendable, Equatable {
        public let showId: String
        public let specificSeatIds: [String]?
        public let quantity: Int?
        public let section: String?

        public init(showId: String, specificSeatIds: [String]? = nil, quantity: Int? = nil, section: String? = nil) {
            self.showId = showId
            self.specificSeatIds = specificSeatIds
            self.quantity = quantity
            self.section = section
        }
    }

    /// The held seats and where to pay for them before `expiresAt`.
    public struct SeatCheckoutResponse: Codable, Sendable, Equatable {
        public let success: Bool
        /// The payment page.
        public let url: String
        /// Passed back to `GET /api/checkout/success?session_id=`.
        public let sessionId: String
        public let orderId: String
        public let expiresAt: String
        public let seatIds: [String]
        public let totalAmount: Int
        public let totalAmountCents: Int
        public let currency: String

        public init(
            url: String, sessionId: String, orderId: String, expiresAt: String, seatIds: [String], totalAmount: Int,
            totalAmountCents: Int, currency: String
        ) {
            self.success = true
            self.url = url
            self.sessionId = sessionId
            self.orderId = orderId
            self.expiresAt = expiresAt
            self.seatIds = seatIds
            self.totalAmount = totalAmount
            self.totalAmountCents = totalAmountCents
            self.currency = currency
        }
    }

    /// 409 `seats_unavailable`: the error body plus the seats that are gone; nothing was held.
    public struct SeatsUnavailable: Codable, Sendable, Equatable, Error {
        public let success: Bool
        public let error: String
        public let code: String
        public let unavailableSeatIds: [String]

        public init(error: String, unavailableSeatIds: [String]) {
            self.success = false
            self.error = error
            self.code = "seats_unavailable"
            self.unavailableSeatIds = unavailableSeatIds
        }
    }

    /// The seed's `BookedSeat`.
    public struct BookedSeat: Codable, Sendable, Equatable, Identifiable {
        public let id: String
        public let row: String
        public let number: String
        public let section: String
        public let price: Int
        public let priceCents: Int

        public init(id: String, row: String, number: String, section: String, price: Int, priceCents: Int) {
            self.id = id
            self.row = row
            self.number = number
            self.section = section
            self.price = price
            self.priceCents = priceCents
        }
    }

    /// The seed's `UserBooking`: one order of seats for one show.
    public struct UserBooking: Codable, Sendable, Equatable, Identifiable {
        public enum Status: String, Codable, Sendable, CaseIterable {
            case pending
            case confirmed
            case cancelled
            case refunded
            case expired
        }

        public let id: String
        public let showId: String
        public let showTitle: String
        public let showDate: String
        public let showTime: String
        public let venue: String
        public let seats: [BookedSeat]
        public let totalAmount: Int
        /// ISO 8601, UTC.
        public let bookingDate: String
        public let status: Status
        /// The booking's scan payload once confirmed.
        public let qrCode: String?
        public let reference: String
        public let totalAmountCents: Int
        public let currency: String

        public init(
            id: String, showId: String, showTitle: String, showDate: String, showTime: String, venue: String,
            seats: [BookedSeat], totalAmount: Int, bookingDate: String, status: Status, qrCode: String?,
            reference: String, totalAmountCents: Int, currency: String
        ) {
            self.id = id
            self.showId = showId
            self.showTitle = showTitle
            self.showDate = showDate
            self.showTime = showTime
            self.venue = venue
            self.seats = seats
            self.totalAmount = totalAmount
            self.bookingDate = bookingDate
            self.status = status
            self.qrCode = qrCode
            self.reference = reference
            self.totalAmountCents = totalAmountCents
            self.currency = currency
        }
    }

    /// `GET /api/checkout/success`: the booking once paid, `status` before.
    public struct CheckoutSuccessResponse: Codable, Sendable, Equatable {
        public let success: Bool
        public let status: UserBooking.Status
        public let booking: UserBooking?

        public init(status: UserBooking.Status, booking: UserBooking?) {
            self.success = true
            self.status = status
            self.booking = booking
        }
    }
}
