extension Rides {
    /// One suggestion of `GET /rides/places/autocomplete`.
    public struct PlaceSuggestionResponse: Codable, Sendable, Equatable, Identifiable {
        public var placeId: String
        public var description: String
        public var mainText: String
        public var secondaryText: String
        /// airport, station, city, address or poi.
        public var kind: String

        public var id: String { placeId }

        public init(placeId: String, description: String, mainText: String, secondaryText: String, kind: String) {
            self.placeId = placeId
            self.description = description
            self.mainText = mainText
            self.secondaryText = secondaryText
            self.kind = kind
        }
    }

    /// `GET /rides/places/autocomplete` response.
    public struct PlacesAutocompleteResponse: Codable, Sendable, Equatable {
        public var suggestions: [PlaceSuggestionResponse]
        public init(suggestions: [PlaceSuggestionResponse]) { self.suggestions = suggestions }
    }

    /// `GET /rides/places/{placeId}` response.
    public struct PlaceDetailsResponse: Codable, Sendable, Equatable {
        public var placeId: String
        public var name: String
        public var formattedAddress: String
        public var latitude: Double
        public var longitude: Double
        public var kind: String
        /// IANA time zone, e.g. `Europe/Zurich`.
        public var timeZone: String

        public init(
            placeId: String, name: String, formattedAddress: String, latitude: Double, longitude: Double, kind: String,
            timeZone: String
        ) {
            self.placeId = placeId
            self.name = name
            self.formattedAddress = formattedAddress
            self.latitude = latitude
            self.longitude = longitude
            self.kind = kind
            self.timeZone = timeZone
        }
    }
}
