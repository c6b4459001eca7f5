import ConciergeCore
import ConciergeModels
import Foundation

/// The places a person can pick for one end of a trip, as radio choices that work without
/// JavaScript: what the platform's places provider finds for their words (the gazetteer
/// offline, Google with a key), typed coordinates, and the trip's current place when editing.
/// A choice's value is what the trip API accepts: a place id, or coordinates.
enum CommutePlaceChoice {
    /// The value of "keep the trip's place" when editing.
    static let keep = "keep"

    enum Parsed {
        case keep
        case place(CommutePlace)
    }

    /// The place a posted choice stands for; nil when nothing was chosen.
    static func place(from value: String?) -> Parsed? {
        guard let value, !value.isEmpty else { return nil }
        if value == keep { return .keep }
        if let coordinate = coordinates(in: value.hasPrefix("geo:") ? String(value.dropFirst(4)) : "") {
            return .place(
                CommutePlace(
                    latitude: coordinate.latitude, longitude: coordinate.longitude,
                    label: "\(coordinate.latitude), \(coordinate.longitude)"))
        }
        // A place id: the service resolves its coordinates and name, or refuses it naming the field.
        return .place(CommutePlace(placeId: String(value.prefix(300))))
    }

    /// `47.3779, 8.5403` (or with a space instead of the comma) as a coordinate; nil otherwise.
    static func coordinates(in text: String) -> Coordinate? {
        let parts = text.split(whereSeparator: { $0 == "," || $0 == " " })
        guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]),
            latitude.isFinite, longitude.isFinite
        else { return nil }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    /// One radio of the choices list.
    struct Option {
        let value: String
        let label: String
        let detail: String
    }

    /// What `query` finds: typed coordinates first, then up to six places.
    static func search(_ query: String, places: any PlacesProvider) async throws -> [Option] {
        let query = query.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !query.isEmpty else { return [] }
        if let coordinate = coordinates(in: query) {
            return [Option(value: "geo:\(coordinate.latitude),\(coordinate.longitude)", label: query, detail: "")]
        }
        let found = try await places.autocomplete(input: String(query.prefix(200)), near: nil, sessionToken: nil)
        return found.prefix(6).map { Option(value: $0.placeId, label: $0.mainText, detail: $0.secondaryText) }
    }

    /// A chosen place id that the current search no longer lists (the words changed), so the
    /// person's choice is still shown and still sent.
    static func chosen(_ value: String?, places: any PlacesProvider) async -> Option? {
        guard let value, !value.isEmpty, value != keep, !value.hasPrefix("geo:"), value.count <= 300,
            let details = try? await places.details(placeId: value, sessionToken: nil)
        else { return nil }
        return Option(value: value, label: details.name, detail: details.formattedAddress)
    }
}
