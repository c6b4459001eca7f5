/// What a place is, for ranking and for pricing rules (an airport pickup costs a fee).
public enum PlaceKind: String, Sendable, Codable, CaseIterable {
    case airport
    case station
    case city
    case address
    case poi
}

/// A point on the earth in degrees (WGS 84).
public struct Coordinate: Sendable, Equatable, Hashable {
    public let latitude: Double
    public let longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// One autocomplete suggestion.
public struct PlaceSuggestion: Sendable, Equatable {
    /// Opaque and owned by the active provider: the gazetteer's own stable IDs, or Google's.
    public let placeId: String
    /// The full one-line text, e.g. "Zurich Airport (ZRH), Kloten, Switzerland".
    public let description: String
    public let mainText: String
    public let secondaryText: String
    public let kind: PlaceKind

    public init(placeId: String, description: String, mainText: String, secondaryText: String, kind: PlaceKind) {
        self.placeId = placeId
        self.description = description
        self.mainText = mainText
        self.secondaryText = secondaryText
        self.kind = kind
    }
}

/// Everything Concierge needs to know about a place.
public struct PlaceDetails: Sendable, Equatable {
    public let placeId: String
    public let name: String
    public let formattedAddress: String
    public let coordinate: Coordinate
    public let kind: PlaceKind
    /// IANA time zone, e.g. "Europe/Zurich".
    public let timeZone: String

    public init(
        placeId: String, name: String, formattedAddress: String, coordinate: Coordinate, kind: PlaceKind,
        timeZone: String
    ) {
        self.placeId = placeId
        self.name = name
        self.formattedAddress = formattedAddress
        self.coordinate = coordinate
        self.kind = kind
        self.timeZone = timeZone
    }
}

/// Place search. Implementations: the embedded gazetteer and Google Places API (New).
public protocol PlacesProvider: Sendable {
    /// At most 10 suggestions, best first. `near` biases the ranking; `sessionToken` groups
    /// autocomplete calls with the details call that ends them (Google bills per session).
    func autocomplete(input: String, near: Coordinate?, sessionToken: String?) async throws -> [PlaceSuggestion]
    /// Nil when the ID is unknown to the provider.
    func details(placeId: String, sessionToken: String?) async throws -> PlaceDetails?
}
