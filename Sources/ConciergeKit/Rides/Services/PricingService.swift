public import ConciergeModels
public import Foundation

extension Rides {
    /// Prices per vehicle class for a trip at a pickup time.
    ///
    /// ```swift
    /// let pricing = try await PricingService.shared.fetchPricing(
    ///     originPlaceId: "gz_iata_ZRH", destinationPlaceId: "gz_geo_2657896",
    ///     pickupDatetime: "2027-01-15T13:00:00.000Z")
    /// print(pricing.prices.business.priceFormatted)   // "CHF 95.00"
    /// ```
    public struct PricingService: Sendable {
        /// Talks to `Concierge.configure(baseURL:)`'s server: `PricingService.shared.fetchPricing(…)`.
        public static var shared: PricingService { PricingService(client: .configured) }

        /// The server connection: `service.client.baseURL`.
        public let client: ConciergeClient

        /// `PricingService(client: ConciergeClient(baseURL: url))` for a server of its own.
        public init(client: ConciergeClient) {
            self.client = client
        }

        /// `pickupDatetime` is ISO 8601 UTC (see `SwissDateTime`).
        public func fetchPricing(originPlaceId: String, destinationPlaceId: String, pickupDatetime: String)
            async throws(BookingError) -> PricingResponse
        {
            guard !originPlaceId.isEmpty, !destinationPlaceId.isEmpty else { throw .missingPlaceId }
            return try await client.send(
                "GET", "rides/pricing",
                query: [
                    URLQueryItem(name: "originPlaceId", value: originPlaceId),
                    URLQueryItem(name: "destinationPlaceId", value: destinationPlaceId),
                    URLQueryItem(name: "pickupDatetime", value: pickupDatetime),
                ])
        }

        /// The guide's form: `pickupDatetime` as a `Date` (e.g. from a Zurich calendar), sent as UTC.
        public func fetchPricing(originPlaceId: String, destinationPlaceId: String, pickupDatetime: Date)
            async throws(BookingError) -> PricingResponse
        {
            try await fetchPricing(
                originPlaceId: originPlaceId, destinationPlaceId: destinationPlaceId, pickup: pickupDatetime)
        }

        /// `try await PricingService.shared.fetchPricing(originPlaceId: a, destinationPlaceId: b, pickup: date)`.
        public func fetchPricing(originPlaceId: String, destinationPlaceId: String, pickup: Date)
            async throws(BookingError)
            -> PricingResponse
        {
            try await fetchPricing(
                originPlaceId: originPlaceId, destinationPlaceId: destinationPlaceId,
                pickupDatetime: WireDate.string(from: pickup))
        }
    }
}
