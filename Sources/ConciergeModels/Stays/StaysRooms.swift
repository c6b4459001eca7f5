extension Stays {
    /// One room type free for a whole range, priced for it. Money is the seed's `Double` in the
    /// hotel currency with two decimals; the `…Cents` integers beside it are exact.
    public struct RoomHotel: Codable, Sendable, Equatable {
        public let id: Int64
        public let description: String
        /// `Family`, `Individual`, `Double` or `Suite`.
        public let roomType: String
        /// A URL the server serves (`/stays/images/…`).
        public let pathImage: String
        public let peopleQuantity: Int
        /// The average nightly rate (VAT included).
        public let price: Double
        public let nights: Int
        /// Accommodation plus city tax.
        public let totalPrice: Double
        /// The city tax: per person per night.
        public let taxPrice: Double
        /// Rooms of this type free on every night of the range.
        public let available: Int
        public let cancellationPolicy: String
        /// `pay_at_hotel` or `prepay`.
        public let paymentPolicy: String
        public let currency: String
        public let priceCents: Int
        public let totalPriceCents: Int
        public let taxPriceCents: Int

        public init(
            id: Int64, description: String, roomType: String, pathImage: String, peopleQuantity: Int, price: Double,
            nights: Int, totalPrice: Double, taxPrice: Double, available: Int, cancellationPolicy: String,
            paymentPolicy: String, currency: String, priceCents: Int, totalPriceCents: Int, taxPriceCents: Int
        ) {
            self.id = id
            self.description = description
            self.roomType = roomType
            self.pathImage = pathImage
            self.peopleQuantity = peopleQuantity
            self.price = price
            self.nights = nights
            self.totalPrice = totalPrice
            self.taxPrice = taxPrice
            self.available = available
            self.cancellationPolicy = cancellationPolicy
            self.paymentPolicy = paymentPolicy
            self.currency = currency
            self.priceCents = priceCents
            self.totalPriceCents = totalPriceCents
            self.taxPriceCents = taxPriceCents
        }
    }
}

extension Stays {
    /// `GET /stays/admin/occupancy`: one row per night and room type.
    public struct OccupancyRow: Codable, Sendable, Equatable {
        public let night: String
        public let roomTypeId: Int64
        public let roomType: String
        public let rooms: Int
        /// Rooms sold (confirmed reservations).
        public let booked: Int
        public let free: Int
        /// Rooms held for prepaid reservations waiting for their payment.
        public let held: Int?

        public init(
            night: String, roomTypeId: Int64, roomType: String, rooms: Int, booked: Int, free: Int, held: Int? = nil
        ) {
            self.night = night
            self.roomTypeId = roomTypeId
            self.roomType = roomType
            self.rooms = rooms
            self.booked = booked
            self.free = free
            self.held = held
        }
    }
}
