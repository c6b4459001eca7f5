extension Events {
    /// The seed's `SeatPricing`: one price category of one section.
    public struct SeatPricing: Codable, Sendable, Equatable {
        public let category: String
        public let section: String
        /// Whole currency units (the seed decodes `Int`).
        public let price: Int
        public let priceCents: Int
        public let color: String

        public init(category: String, section: String, price: Int, priceCents: Int, color: String) {
            self.category = category
            self.section = section
            self.price = price
            self.priceCents = priceCents
            self.color = color
        }
    }

    /// The seed's `Show`, plus its instant in UTC, its venue's time zone, currency, how many
    /// seats are free and where it stands.
    public struct Show: Codable, Sendable, Equatable, Identifiable {
        public enum Status: String, Codable, Sendable, CaseIterable {
            case onSale = "on_sale"
            case soldOut = "sold_out"
            case past
            case cancelled
            /// Listed, but its sales open later (`onSaleFrom`).
            case notYetOnSale = "not_yet_on_sale"
            /// Listed until it starts, but its sales have closed (`onSaleUntil`).
            case salesEnded = "sales_ended"
        }

        public let id: String
        public let title: String
        public let description: String
        /// `YYYY-MM-DD` in the venue's time zone.
        public let date: String
        /// `HH:MM:SS` in the venue's time zone.
        public let time: String
        // swift-format-ignore: AlwaysUseLowerCamelCase
        // The seed spells it so.
        public let venue_name: String
        public let location: String
        public let imageUrl: String
        // swift-format-ignore: AlwaysUseLowerCamelCase
        // The seed spells it so.
        public let min_price: Int
        // swift-format-ignore: AlwaysUseLowerCamelCase
        // The seed spells it so.
        public let max_price: Int
        public let seatMapId: String
        // swift-format-ignore: AlwaysUseLowerCamelCase
        // The seed spells it so.
        public let seat_pricing: [SeatPricing]
        /// ISO 8601, UTC.
        public let startsAt: String
        public let timeZone: String
        public let currency: String
        public let minPriceCents: Int
        public let maxPriceCents: Int
        public let availableSeats: Int
        public let status: Status
        /// The on-sale window, ISO 8601 UTC; absent when open-ended.
        public let onSaleFrom: String?
        public let onSaleUntil: String?

        public init(
            id: String, title: String, description: String, date: String, time: String, venue_name: String,
            location: String, imageUrl: String, min_price: Int, max_price: Int, seatMapId: String,
            seat_pricing: [SeatPricing], startsAt: String, timeZone: String, currency: String, minPriceCents: Int,
            maxPriceCents: Int, availableSeats: Int, status: Status, onSaleFrom: String? = nil,
            onSaleUntil: String? = nil
        ) {
            self.id = id
            self.title = title
            self.description = description
            self.date = date
            self.time = time
            self.venue_name = venue_name
            self.location = location
            self.imageUrl = imageUrl
            self.min_price = min_price
            self.max_price = max_price
            self.seatMapId = seatMapId
            self.seat_pricing = seat_pricing
            self.startsAt = startsAt
            self.timeZone = timeZone
            self.currency = currency
            self.minPriceCents = minPriceCents
            self.maxPriceCents = maxPriceCents
            self.availableSeats = availableSeats
            self.status = status
            self.onSaleFrom = onSaleFrom
            self.onSaleUntil = onSaleUntil
        }
    }

    /// The seed's `Seat` of one show.
    public struct Seat: Codable, Sendable, Equatable, Identifiable {
        public enum Status: String, Codable, Sendable, CaseIterable {
            case available
            /// Held by an unexpired hold.
            case reserved
            case sold
        }

        public let id: String
        public let row: String
        public let number: String
        public let section: String
        public let price: Int
        public let status: Status
        public let seatMapId: String
        public let priceCents: Int
        public let currency: String
        /// True on the caller's own held seats (with a Bearer token).
        public let heldByYou: Bool?

        public init(
            id: String, row: String, number: String, section: String, price: Int, status: Status, seatMapId: String,
            priceCents: Int, currency: String, heldByYou: Bool?
        ) {
            self.id = id
            self.row = row
            self.number = number
            self.section = section
            self.price = price
            self.status = status
            self.seatMapId = seatMapId
            self.priceCents = priceCents
            self.currency = currency
            self.heldByYou = heldByYou
        }
    }
}
