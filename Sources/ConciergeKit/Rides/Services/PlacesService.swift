public import ConciergeModels
import Foundation

extension Rides {
    /// Place search through Concierge (its gazetteer or Google, whichever the server runs).
    ///
    /// ```swift
    /// let suggestions = try await PlacesService.shared.autocomplete("zurich air")
    /// let place = try await PlacesService.shared.details(placeId: suggestions[0].placeId)
    /// ```
    public struct PlacesService: Sendable {
        /// Talks to `Concierge.configure(baseURL:)`'s server: `PlacesService.shared.autocomplete("zur")`.
        public static var shared: PlacesService { PlacesService(client: .configured) }

        /// The server connection: `service.client.baseURL`.
        public let client: ConciergeClient

        /// `PlacesService(client: ConciergeClient(baseURL: url))` for a server of its own.
        public init(client: ConciergeClient) {
            self.client = client
        }

        /// Up to 10 suggestions; `sessionToken` groups one search for billing, `near` biases ranking.
        public func autocomplete(
            _ input: String, sessionToken: String? = nil, near: (latitude: Double, longitude: Double)? = nil
        ) async throws(BookingError) -> [PlaceSuggestionResponse] {
            var query = [URLQueryItem(name: "input", value: input)]
            if let sessionToken { query.append(URLQueryItem(name: "sessionToken", value: sessionToken)) }
            if let near {
                query.append(URLQueryItem(name: "lat", value: String(near.latitude)))
                query.append(URLQueryItem(name: "lon", value: String(near.longitude)))
            }
            return try await client.send(
                "GET", "rides/places/autocomplete", query: query, as: PlacesAutocompleteResponse.self
            )
            .suggestions
        }

        /// Name, address, coordinates and time zone: `try await PlacesService.shared.details(placeId: "gz_iata_ZRH")`.
        public func details(placeId: String, sessionToken: String? = nil) async throws(BookingError)
            -> PlaceDetailsResponse
        {
            guard !placeId.isEmpty else { throw .missingPlaceId }
            return try await client.send(
                "GET", "rides/places/\(placeId)",
                query: sessionToken.map { [URLQueryItem(name: "sessionToken", value: $0)] } ?? [])
        }
    }
}
