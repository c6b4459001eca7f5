import ConciergeCore

/// One place of the embedded data set.
struct GazetteerPlace: Sendable {
    let id: String
    let kind: PlaceKind
    let name: String
    let coordinate: Coordinate
    let timeZone: String
    /// log10 of the population (cities) or of the served city's population plus bonuses (airports).
    let importance: Double
    let countryCode: String
    /// "Zurich, Switzerland": region and country, for the second line of a suggestion.
    let secondaryText: String
    /// Other names: languages, IATA code, "City Airport".
    let alternateNames: [String]

    /// Parses one line of `gazetteer.tsv`; nil for a comment or a malformed line.
    init?(line: Substring) {
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
        guard fields.count == 10, !line.hasPrefix("#"), let kind = PlaceKind(rawValue: String(fields[1])),
            let latitude = Double(fields[3]), let longitude = Double(fields[4]), let importance = Double(fields[6])
        else { return nil }
        self.id = String(fields[0])
        self.kind = kind
        self.name = String(fields[2])
        self.coordinate = Coordinate(latitude: latitude, longitude: longitude)
        self.timeZone = String(fields[5])
        self.importance = importance
        self.countryCode = String(fields[7])
        self.secondaryText = String(fields[8])
        self.alternateNames = fields[9].isEmpty ? [] : fields[9].split(separator: "|").map(String.init)
    }

    /// "Zurich Airport, Switzerland".
    var formattedAddress: String {
        secondaryText.isEmpty ? name : "\(name), \(secondaryText)"
    }

    /// The IATA code of an airport, from its ID.
    var iataCode: String? {
        kind == .airport && id.hasPrefix("gz_iata_") ? String(id.dropFirst("gz_iata_".count)) : nil
    }
}
