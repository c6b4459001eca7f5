extension Rides {
    /// `GET /rides/pricing` response: a price per vehicle class for one trip at one time.
    public struct PricingResponse: Codable, Sendable, Equatable {
        public var success: Bool
        /// Always "CHF".
        public var currency: String
        /// Road distance, one decimal.
        public var distanceKm: Double
        public var durationMinutes: Int
        /// The pickup time priced, ISO 8601 UTC.
        public var pickupDatetime: String
        public var prices: VehiclePrices
        /// The surcharges that applied, e.g. weekend +10 %.
        public var adjustments: [PricingAdjustment]

        public init(
            success: Bool = true, currency: String = "CHF", distanceKm: Double, durationMinutes: Int,
            pickupDatetime: String, prices: VehiclePrices, adjustments: [PricingAdjustment]
        ) {
            self.success = success
            self.currency = currency
            self.distanceKm = distanceKm
            self.durationMinutes = durationMinutes
            self.pickupDatetime = pickupDatetime
            self.prices = prices
            self.adjustments = adjustments
        }
    }

    /// The price of each vehicle class.
    public struct VehiclePrices: Codable, Sendable, Equatable {
        public var business: VehiclePrice
        public var first: VehiclePrice
        public var xl: VehiclePrice

        public init(business: VehiclePrice, first: VehiclePrice, xl: VehiclePrice) {
            self.business = business
            self.first = first
            self.xl = xl
        }
    }

    /// One class's price: integer CHF cents and the same formatted ("CHF 95.00").
    public struct VehiclePrice: Codable, Sendable, Equatable {
        public var priceCents: Int
        public var priceFormatted: String
        public var vehicle: String
        public var maxPassengers: Int

        public init(priceCents: Int, priceFormatted: String, vehicle: String, maxPassengers: Int) {
            self.priceCents = priceCents
            self.priceFormatted = priceFormatted
            self.vehicle = vehicle
            self.maxPassengers = maxPassengers
        }
    }

    /// A surcharge: a percentage (`percent`) or a fixed amount (`amountCents`).
    public struct PricingAdjustment: Codable, Sendable, Equatable {
        public var code: String
        public var label: String
        public var percent: Int?
        public var amountCents: Int?

        public init(code: String, label: String, percent: Int? = nil, amountCents: Int? = nil) {
            self.code = code
            self.label = label
            self.percent = percent
            self.amountCents = amountCents
        }
    }
}
