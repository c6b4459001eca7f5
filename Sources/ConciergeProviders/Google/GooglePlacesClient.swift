public import ConciergeCore
import Foundation
public import Logging

/// Place search on Google Places API (New).
///
/// - Autocomplete: `POST {base}/v1/places:autocomplete` with a JSON body (`input`,
///   `sessionToken`, `locationBias.circle` around `near`, `includedRegionCodes`,
///   `languageCode`) and a field mask limited to what a `PlaceSuggestion` needs.
/// - Details: `GET {base}/v1/places/{placeId}?sessionToken=…` with the field mask
///   `id,displayName,formattedAddress,location,types,timeZone` (Details refuses to answer
///   without a mask, and bills by the most expensive field in it).
///
/// Both are read-only, so each is retried once on a time-out, a 429 or a 5xx (see
/// `GoogleMapsEndpoint`). Errors follow `GoogleErrorMapping`; an unknown place id (404, or 400
/// `INVALID_ARGUMENT`) is `nil` from `details`, as `PlacesProvider` asks.
public struct GooglePlacesClient: PlacesProvider {
    public static let defaultBaseURL = "https://places.googleapis.com"
    /// The IANA zone used when Google's answer carries no `timeZone` (or one this system's
    /// time zone database does not know). Concierge serves Switzerland, so a missing zone is
    /// far more likely to be Swiss than anything else; nothing cleverer is derived.
    public static let defaultTimeZone = "Europe/Zurich"
    /// Google's maximum radius for a circular location bias.
    public static let maxLocationBiasRadiusMeters = 50_000.0

    static let autocompleteFieldMask =
        "suggestions.placePrediction.placeId,suggestions.placePrediction.text,"
        + "suggestions.placePrediction.structuredFormat,suggestions.placePrediction.types"
    static let detailsFieldMask = "id,displayName,formattedAddress,location,types,timeZone"
    static let maxSuggestions = 10

    private let endpoint: GoogleMapsEndpoint
    private let baseURL: String
    private let includedRegionCodes: [String]
    private let languageCode: String?
    private let locationBiasRadiusMeters: Double
    private let defaultTimeZone: String
    private var logger: Logger { endpoint.logger }

    /// - Parameters:
    ///   - includedRegionCodes: CLDR two-letter region codes (at most 15) results must be in,
    ///     e.g. `["ch"]`; empty means worldwide.
    ///   - languageCode: the language of names and addresses, e.g. `"en"`; nil lets Google
    ///     choose (its default is `en-US`).
    ///   - locationBiasRadiusMeters: the radius of the bias circle around `near`, clamped to
    ///     Google's range 0...50,000 m.
    ///   - defaultTimeZone: see `GooglePlacesClient.defaultTimeZone`.
    ///   - baseURL: injectable for tests against a local stub server.
    ///   - timeout: per attempt; a person is waiting on every keystroke.
    ///   - retryBackoff: the pause before the single retry; tests pass zero.
    public init(
        key: GoogleMapsKey,
        includedRegionCodes: [String] = [],
        languageCode: String? = nil,
        locationBiasRadiusMeters: Double = GooglePlacesClient.maxLocationBiasRadiusMeters,
        defaultTimeZone: String = GooglePlacesClient.defaultTimeZone,
        transport: any ProviderHTTPTransport = AsyncHTTPClientTransport(),
        baseURL: String = GooglePlacesClient.defaultBaseURL,
        timeout: Duration = .seconds(3),
        retryBackoff: Duration = .milliseconds(200),
        logger: Logger = Logger(label: "concierge.providers.google")
    ) {
        self.endpoint = GoogleMapsEndpoint(
            key: key, transport: transport, timeout: timeout, retryBackoff: retryBackoff, service: .places,
            logger: logger)
        self.baseURL = GoogleMapsEndpoint.trimmed(baseURL)
        self.includedRegionCodes = includedRegionCodes
        self.languageCode = languageCode
        self.locationBiasRadiusMeters = min(max(locationBiasRadiusMeters, 0), Self.maxLocationBiasRadiusMeters)
        self.defaultTimeZone = defaultTimeZone
    }

    // MARK: autocomplete

    public func autocomplete(input: String, near: Coordinate?, sessionToken: String?) async throws
        -> [PlaceSuggestion]
    {
        // Google answers an empty input with 400; there is nothing to search for anyway.
        guard !input.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return [] }
        let body = AutocompleteRequest(
            input: input,
            sessionToken: usableSessionToken(sessionToken),
            locationBias: near.map {
                LocationBias(circle: Circle(center: LatLng($0), radius: locationBiasRadiusMeters))
            },
            includedRegionCodes: includedRegionCodes.isEmpty ? nil : includedRegionCodes,
            languageCode: languageCode
        )
        let request = endpoint.key.jsonPOST(
            url: baseURL + "/v1/places:autocomplete", fieldMask: Self.autocompleteFieldMask,
            body: try Self.encoder.encode(body))
        let response = try await endpoint.send(request, operation: "autocomplete")
        guard (200...299).contains(response.status) else {
            throw GoogleErrorMapping.failure(response, service: .places, calling: "autocomplete", logger: logger)
        }
        guard let decoded = try? JSONDecoder().decode(AutocompleteResponse.self, from: response.body) else {
            logger.error(
                "Google Places autocomplete answered with an unreadable body",
                metadata: ["http_status": "\(response.status)"])
            throw GoogleErrorMapping.unexpectedResponse(.places)
        }
        // `{}` is "no suggestions": proto3 JSON leaves out empty lists. Query predictions
        // (free-text searches) are skipped: only a place can be booked.
        let suggestions = (decoded.suggestions ?? []).compactMap { $0.placePrediction.flatMap(Self.suggestion) }
        return Array(suggestions.prefix(Self.maxSuggestions))
    }

    private static func suggestion(_ prediction: PlacePrediction) -> PlaceSuggestion? {
        guard let placeId = prediction.placeId, !placeId.isEmpty else { return nil }
        let mainText = prediction.structuredFormat?.mainText?.text ?? ""
        let secondaryText = prediction.structuredFormat?.secondaryText?.text ?? ""
        let fullText = prediction.text?.text ?? ""
        let description =
            !fullText.isEmpty
            ? fullText : [mainText, secondaryText].filter { !$0.isEmpty }.joined(separator: ", ")
        return PlaceSuggestion(
            placeId: placeId,
            description: description,
            mainText: mainText.isEmpty ? description : mainText,
            secondaryText: secondaryText,
            kind: kind(forTypes: prediction.types ?? [])
        )
    }

    // MARK: details

    public func details(placeId: String, sessionToken: String?) async throws -> PlaceDetails? {
        guard !placeId.isEmpty else { return nil }
        var query: [(String, String)] = []
        if let languageCode { query.append(("languageCode", languageCode)) }
        if let token = usableSessionToken(sessionToken) { query.append(("sessionToken", token)) }
        // Percent-encoded so that an id from a client (say, one with a `/` or `?`) can only
        // ever name a place, never another endpoint.
        var url = baseURL + "/v1/places/" + FormEncoding.percentEncode(placeId)
        if !query.isEmpty { url += "?" + FormEncoding.encode(query) }

        let response = try await endpoint.send(
            endpoint.key.get(url: url, fieldMask: Self.detailsFieldMask), operation: "details")
        switch response.status {
        case 200...299:
            return try place(from: response, requestedId: placeId)
        case 400, 404:
            let googleError = GoogleAPIError.decode(response.body)
            // Google answers a malformed or foreign id (one of the gazetteer's, say) with 400
            // INVALID_ARGUMENT and a well-formed unknown one with 404 NOT_FOUND. A bad key is
            // also a 400 INVALID_ARGUMENT, told apart by its `API_KEY_INVALID` reason.
            if !GoogleErrorMapping.isKeyProblem(googleError)
                && (response.status == 404 || googleError?.status == "INVALID_ARGUMENT")
            {
                logger.info(
                    "Google Places details: unknown place id",
                    metadata: [
                        "http_status": "\(response.status)", "google_status": "\(googleError?.status ?? "none")",
                    ])
                return nil
            }
            throw GoogleErrorMapping.failure(response, service: .places, calling: "details", logger: logger)
        default:
            throw GoogleErrorMapping.failure(response, service: .places, calling: "details", logger: logger)
        }
    }

    private func place(from response: ProviderHTTPResponse, requestedId: String) throws -> PlaceDetails {
        guard let place = try? JSONDecoder().decode(PlaceResponse.self, from: response.body),
            let location = place.location
        else {
            logger.error(
                "Google Places details answered without a readable place and location",
                metadata: ["http_status": "\(response.status)"])
            throw GoogleErrorMapping.unexpectedResponse(.places)
        }
        let formattedAddress = place.formattedAddress ?? ""
        let name = place.displayName?.text ?? (formattedAddress.isEmpty ? requestedId : formattedAddress)
        return PlaceDetails(
            placeId: place.id.flatMap { $0.isEmpty ? nil : $0 } ?? requestedId,
            name: name,
            formattedAddress: formattedAddress.isEmpty ? name : formattedAddress,
            // proto3 JSON leaves out zero values, so a missing latitude or longitude is 0.
            coordinate: Coordinate(latitude: location.latitude ?? 0, longitude: location.longitude ?? 0),
            kind: Self.kind(forTypes: place.types ?? []),
            timeZone: timeZone(from: place.timeZone?.id)
        )
    }

    private func timeZone(from id: String?) -> String {
        guard let id, !id.isEmpty else { return defaultTimeZone }
        guard TimeZone(identifier: id) != nil else {
            logger.warning(
                "Google Places details named a time zone this system does not know; using the default",
                metadata: ["time_zone": "\(id)", "default": "\(defaultTimeZone)"])
            return defaultTimeZone
        }
        return id
    }

    // MARK: shared

    /// What a place is, from Google's type tags (Table A/B of the place types). The first
    /// matching rule wins, so an airport that is also tagged `transit_station` stays an airport.
    static func kind(forTypes types: [String]) -> PlaceKind {
        let tags = Set(types)
        if !tags.isDisjoint(with: ["airport", "international_airport"]) { return .airport }
        if !tags.isDisjoint(with: ["train_station", "transit_station", "subway_station", "light_rail_station"]) {
            return .station
        }
        if tags.contains("locality") || tags.contains("postal_town")
            || tags.contains(where: { $0.hasPrefix("administrative_area_level_") })
        {
            return .city
        }
        if !tags.isDisjoint(with: ["street_address", "premise", "subpremise", "route"]) { return .address }
        return .poi
    }

    /// Google rejects the whole call with 400 INVALID_ARGUMENT unless a session token is "a URL
    /// and filename safe base64 string with at most 36 ASCII characters". The token comes from
    /// the app, so a malformed one is dropped (the call is then billed on its own) rather than
    /// failing the person's search.
    private func usableSessionToken(_ token: String?) -> String? {
        guard let token, !token.isEmpty else { return nil }
        guard Self.isValidSessionToken(token) else {
            logger.warning(
                "Dropping a malformed Places session token", metadata: ["token_length": "\(token.utf8.count)"])
            return nil
        }
        return token
    }

    static func isValidSessionToken(_ token: String) -> Bool {
        let utf8 = token.utf8
        guard (1...36).contains(utf8.count) else { return false }
        return utf8.allSatisfy { byte in
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "=")
        }
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}

// MARK: wire types (proto3 JSON, lowerCamelCase; absent fields are default values)

private struct AutocompleteRequest: Encodable {
    let input: String
    let sessionToken: String?
    let locationBias: LocationBias?
    let includedRegionCodes: [String]?
    let languageCode: String?
}

private struct LocationBias: Encodable {
    let circle: Circle
}

private struct Circle: Encodable {
    let center: LatLng
    let radius: Double
}

private struct LatLng: Encodable {
    let latitude: Double
    let longitude: Double

    init(_ coordinate: Coordinate) {
        self.latitude = coordinate.latitude
        self.longitude = coordinate.longitude
    }
}

private struct AutocompleteResponse: Decodable {
    let suggestions: [Suggestion]?
}

private struct Suggestion: Decodable {
    let placePrediction: PlacePrediction?
}

private struct PlacePrediction: Decodable {
    let placeId: String?
    let text: FormattableText?
    let structuredFormat: StructuredFormat?
    let types: [String]?
}

private struct StructuredFormat: Decodable {
    let mainText: FormattableText?
    let secondaryText: FormattableText?
}

private struct FormattableText: Decodable {
    let text: String?
}

private struct PlaceResponse: Decodable {
    struct LocalizedText: Decodable {
        let text: String?
    }

    struct Location: Decodable {
        let latitude: Double?
        let longitude: Double?
    }

    /// `google.type.TimeZone`: `{"id": "Europe/Zurich", "version": "2024a"}`.
    struct TimeZoneID: Decodable {
        let id: String?
    }

    let id: String?
    let displayName: LocalizedText?
    let formattedAddress: String?
    let location: Location?
    let types: [String]?
    let timeZone: TimeZoneID?
}
