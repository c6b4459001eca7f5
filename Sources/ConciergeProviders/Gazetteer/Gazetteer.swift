public import ConciergeCore
import Foundation

/// The embedded places provider: every IATA airport, Swiss and Liechtenstein places with 500+
/// inhabitants and neighbouring countries' places with 15,000+ (see scripts/generate-gazetteer.py).
/// Works offline; its place IDs (`gz_geo_…`, `gz_iata_…`) are stable across data updates.
public struct Gazetteer: PlacesProvider {
    let places: [GazetteerPlace]
    let index: GazetteerIndex
    private let byID: [String: Int]

    /// The bundled data, loaded once per process (every server instance in a process shares it).
    public static func shared() throws -> Gazetteer {
        try sharedResult.get()
    }

    private static let sharedResult = Result { try bundled() }

    /// Loads the data shipped in the package.
    public static func bundled() throws -> Gazetteer {
        guard let url = Bundle.module.url(forResource: "gazetteer", withExtension: "tsv") else {
            throw ConciergeError(
                .unavailable(retryAfterSeconds: nil), code: "places_unavailable",
                message: "The embedded places data is missing from this build.")
        }
        return Gazetteer(tsv: try String(contentsOf: url, encoding: .utf8))
    }

    init(tsv: String) {
        self.init(places: tsv.split(separator: "\n").compactMap(GazetteerPlace.init(line:)))
    }

    init(places: [GazetteerPlace]) {
        self.places = places
        self.index = GazetteerIndex(places: places)
        self.byID = Dictionary(places.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    public var count: Int { places.count }

    public func autocomplete(input: String, near: Coordinate?, sessionToken: String?) async throws -> [PlaceSuggestion]
    {
        suggestions(for: input, near: near)
    }

    public func details(placeId: String, sessionToken: String?) async throws -> PlaceDetails? {
        byID[placeId].map { places[$0].details }
    }

    /// The synchronous search behind `autocomplete`, for benchmarks.
    public func suggestions(for input: String, near: Coordinate?, limit: Int = 10) -> [PlaceSuggestion] {
        GazetteerSearch(gazetteer: self, input: input, near: near).run(limit: limit).map { places[$0].suggestion }
    }
}

extension GazetteerPlace {
    var suggestion: PlaceSuggestion {
        PlaceSuggestion(
            placeId: id, description: formattedAddress, mainText: iataCode.map { "\(name) (\($0))" } ?? name,
            secondaryText: secondaryText, kind: kind)
    }

    var details: PlaceDetails {
        PlaceDetails(
            placeId: id, name: name, formattedAddress: formattedAddress, coordinate: coordinate, kind: kind,
            timeZone: timeZone)
    }
}

extension Gazetteer {
    /// Every place's name and IATA code, in data order, for benchmarks.
    @_spi(Benchmarks) public var benchmarkNames: [(name: String, code: String?)] {
        places.map { ($0.name, $0.iataCode) }
    }
}
