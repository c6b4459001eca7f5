import ConciergeCore
import ConciergeProviders
import Foundation
import Testing

/// Google Places API (New), against recorded answers through the transport seam.
@Suite struct GooglePlacesClientTests {
    private typealias Values = GoogleTestValues

    // MARK: autocomplete request

    @Test func autocompletePostsInputSessionTokenAndLocationBias() async throws {
        let transport = try RecordingTransport(status: 200, fixture: "google_autocomplete_200")

        _ = try await Values.places(transport).autocomplete(
            input: "Schiphol", near: Coordinate(latitude: 52.3676, longitude: 4.9041),
            sessionToken: Values.sessionToken)

        let request = try await transport.onlyRequest
        #expect(request.method == "POST")
        #expect(request.url == "https://places.googleapis.com/v1/places:autocomplete")
        #expect(request.header("Content-Type") == "application/json")
        #expect(request.header("x-goog-api-key") == Values.apiKey)
        #expect(
            request.header("X-Goog-FieldMask")
                == "suggestions.placePrediction.placeId,suggestions.placePrediction.text,suggestions.placePrediction.structuredFormat,suggestions.placePrediction.types"
        )
        let expected: JSONValue = [
            "input": "Schiphol",
            "sessionToken": "3f1c6c0e-8a4b-4b9e-9a57-2b8f1a0c9d11",
            "locationBias": ["circle": ["center": ["latitude": 52.3676, "longitude": 4.9041], "radius": 50000]],
        ]
        #expect(try JSONValue.parse(request.body) == expected)
        #expect(await transport.timeouts == [.seconds(3)])
    }

    @Test func autocompleteWithoutNearOrTokenSendsOnlyTheInput() async throws {
        let transport = try RecordingTransport(status: 200, fixture: "google_autocomplete_empty_200")

        _ = try await Values.places(transport).autocomplete(input: "Zürich Flughafen", near: nil, sessionToken: nil)

        let request = try await transport.onlyRequest
        #expect(try JSONValue.parse(request.body) == ["input": "Zürich Flughafen"])
        // Exact bytes: sorted keys, UTF-8 as is.
        #expect(request.bodyText == #"{"input":"Zürich Flughafen"}"#)
    }

    @Test func autocompleteSendsConfiguredRegionsLanguageAndRadius() async throws {
        let transport = try RecordingTransport(status: 200, fixture: "google_autocomplete_empty_200")
        let client = GooglePlacesClient(
            key: Values.key, includedRegionCodes: ["ch", "li"], languageCode: "de", locationBiasRadiusMeters: 80_000,
            transport: transport, baseURL: "http://127.0.0.1:9999/", retryBackoff: .zero)

        _ = try await client.autocomplete(
            input: "zur", near: Coordinate(latitude: 47.3769, longitude: 8.5417), sessionToken: "abc_DEF-123")

        let request = try await transport.onlyRequest
        #expect(request.url == "http://127.0.0.1:9999/v1/places:autocomplete")
        let expected: JSONValue = [
            "input": "zur",
            "sessionToken": "abc_DEF-123",
            "includedRegionCodes": ["ch", "li"],
            "languageCode": "de",
            // Clamped to Google's maximum.
            "locationBias": ["circle": ["center": ["latitude": 47.3769, "longitude": 8.5417], "radius": 50000]],
        ]
        #expect(try JSONValue.parse(request.body) == expected)
    }

    @Test(arguments: [
        String(repeating: "a", count: 37),  // longer than Google's 36
        "has spaces in it",
        "slash/and+plus",
    ])
    func autocompleteDropsMalformedSessionToken(token: String) async throws {
        let transport = try RecordingTransport(status: 200, fixture: "google_autocomplete_empty_200")

        _ = try await Values.places(transport).autocomplete(input: "zur", near: nil, sessionToken: token)

        let request = try await transport.onlyRequest
        #expect(try JSONValue.parse(request.body) == ["input": "zur"])
    }

    @Test func autocompleteOfBlankInputAsksNobody() async throws {
        let transport = try RecordingTransport(status: 200, fixture: "google_autocomplete_200")

        let suggestions = try await Values.places(transport).autocomplete(input: "  ", near: nil, sessionToken: nil)

        #expect(suggestions.isEmpty)
        #expect(await transport.requests.isEmpty)
    }

    // MARK: autocomplete response

    @Test func autocompleteMapsThePlacePredictionAndSkipsQueryPredictions() async throws {
        let transport = try RecordingTransport(status: 200, fixture: "google_autocomplete_200")

        let suggestions = try await Values.places(transport).autocomplete(
            input: "Schiphol", near: nil, sessionToken: nil)

        #expect(
            suggestions == [
                PlaceSuggestion(
                    placeId: "ChIJLRb94DIJxkcRp5q0yT8z8ZE",
                    description: "Amsterdam Airport Schiphol (AMS), Evert van de Beekstraat, Schiphol, Netherlands",
                    mainText: "Amsterdam Airport Schiphol (AMS)",
                    secondaryText: "Evert van de Beekstraat, Schiphol, Netherlands",
                    kind: .airport)
            ])
    }

    @Test func autocompleteWithNoResultsIsEmpty() async throws {
        let transport = try RecordingTransport(status: 200, fixture: "google_autocomplete_empty_200")

        #expect(try await Values.places(transport).autocomplete(input: "xqzv", near: nil, sessionToken: nil).isEmpty)
    }

    @Test(arguments: [
        (["airport", "point_of_interest", "establishment"], PlaceKind.airport),
        (["international_airport", "airport"], .airport),
        (["airport", "transit_station"], .airport),
        (["train_station", "transit_station", "point_of_interest"], .station),
        (["transit_station", "establishment"], .station),
        (["subway_station"], .station),
        (["locality", "political"], .city),
        (["administrative_area_level_1", "political"], .city),
        (["administrative_area_level_3", "political"], .city),
        (["street_address", "geocode"], .address),
        (["premise", "geocode"], .address),
        (["route", "geocode"], .address),
        (["hotel", "lodging", "point_of_interest", "establishment"], .poi),
        ([], .poi),
    ])
    func autocompleteMapsTypesToKinds(types: [String], kind: PlaceKind) async throws {
        let body = try Fixture.googleAutocomplete([(id: "ChIJkind", main: "Main", secondary: "Secondary", types: types)]
        )
        let transport = RecordingTransport(status: 200, body: body)

        let suggestions = try await Values.places(transport).autocomplete(input: "x", near: nil, sessionToken: nil)

        #expect(suggestions.map(\.kind) == [kind])
    }

    @Test func autocompleteReturnsAtMostTenInGoogleOrder() async throws {
        let predictions = (1...12).map { (id: "ChIJ\($0)", main: "Place \($0)", secondary: "Zürich", types: ["cafe"]) }
        let transport = RecordingTransport(status: 200, body: try Fixture.googleAutocomplete(predictions))

        let suggestions = try await Values.places(transport).autocomplete(input: "place", near: nil, sessionToken: nil)

        #expect(suggestions.map(\.placeId) == (1...10).map { "ChIJ\($0)" })
        #expect(suggestions.first?.description == "Place 1, Zürich")
    }

    @Test func autocompleteUnreadableSuccessIsPlacesFailed() async throws {
        let transport = RecordingTransport(status: 200, body: Data("<html></html>".utf8))

        let error = await #expect(throws: ConciergeError.self) {
            try await Values.places(transport).autocomplete(input: "zur", near: nil, sessionToken: nil)
        }

        #expect(error?.category == .upstreamFailed)
        #expect(error?.code == "places_failed")
    }

    // MARK: details

    @Test func detailsGetsThePlaceWithFieldMaskAndSessionToken() async throws {
        let transport = try RecordingTransport(status: 200, fixture: "google_place_details_200")

        _ = try await Values.places(transport).details(placeId: Values.schipholId, sessionToken: Values.sessionToken)

        let request = try await transport.onlyRequest
        #expect(request.method == "GET")
        #expect(
            request.url
                == "https://places.googleapis.com/v1/places/ChIJLRb94DIJxkcRp5q0yT8z8ZE?sessionToken=3f1c6c0e-8a4b-4b9e-9a57-2b8f1a0c9d11"
        )
        #expect(request.header("X-Goog-Api-Key") == Values.apiKey)
        #expect(request.header("X-Goog-FieldMask") == "id,displayName,formattedAddress,location,types,timeZone")
        #expect(request.body == nil)
        #expect(await transport.timeouts == [.seconds(3)])
    }

    @Test func detailsWithoutTokenHasNoQueryAndEncodesTheId() async throws {
        let transport = try RecordingTransport(status: 200, fixture: "google_place_details_200")

        _ = try await Values.places(transport).details(placeId: "../x?y", sessionToken: nil)

        #expect(try await transport.onlyRequest.url == "https://places.googleapis.com/v1/places/..%2Fx%3Fy")
    }

    @Test func detailsMapsNameAddressLocationKindAndTimeZone() async throws {
        let transport = try RecordingTransport(status: 200, fixture: "google_place_details_200")

        let place = try await Values.places(transport).details(placeId: Values.schipholId, sessionToken: nil)

        #expect(
            place
                == PlaceDetails(
                    placeId: "ChIJLRb94DIJxkcRp5q0yT8z8ZE", name: "Amsterdam Airport Schiphol",
                    formattedAddress: "Evert van de Beekstraat 202, 1118 CP Schiphol, Netherlands",
                    coordinate: Coordinate(latitude: 52.3105386, longitude: 4.7682744), kind: .airport,
                    timeZone: "Europe/Amsterdam"))
    }

    @Test func detailsWithoutTypesOrTimeZoneUsesPoiAndTheDefaultZone() async throws {
        let transport = try RecordingTransport(status: 200, fixture: "google_place_details_minimal_200")

        let place = try await Values.places(transport).details(placeId: Values.schipholId, sessionToken: nil)

        #expect(place?.kind == .poi)
        #expect(place?.timeZone == "Europe/Zurich")
        #expect(place?.name == "Amsterdam Airport Schiphol")
    }

    @Test func detailsDefaultZoneIsConfigurable() async throws {
        let transport = try RecordingTransport(status: 200, fixture: "google_place_details_minimal_200")
        let client = GooglePlacesClient(
            key: Values.key, defaultTimeZone: "Europe/Amsterdam", transport: transport, retryBackoff: .zero)

        #expect(try await client.details(placeId: Values.schipholId, sessionToken: nil)?.timeZone == "Europe/Amsterdam")
    }

    @Test func detailsWithUnknownTimeZoneFallsBackToTheDefault() async throws {
        let body = Data(
            #"{"id":"ChIJx","displayName":{"text":"X"},"location":{"latitude":47.1},"timeZone":{"id":"Mars/Olympus_Mons"}}"#
                .utf8)
        let place = try await Values.places(RecordingTransport(status: 200, body: body)).details(
            placeId: "ChIJx", sessionToken: nil)

        #expect(place?.timeZone == "Europe/Zurich")
        // proto3 JSON leaves out zero values: the missing longitude is 0.
        #expect(place?.coordinate == Coordinate(latitude: 47.1, longitude: 0))
        #expect(place?.formattedAddress == "X")
    }

    @Test(arguments: ["google_error_404_not_found", "google_error_400_invalid_argument"])
    func detailsOfUnknownPlaceIsNil(fixture: String) async throws {
        let status = fixture.contains("404") ? 404 : 400
        let transport = try RecordingTransport(status: status, fixture: fixture)

        let place = try await Values.places(transport).details(placeId: "gz_zurich_hb", sessionToken: nil)

        #expect(place == nil)
        #expect(await transport.requests.count == 1)
    }

    @Test func detailsOfEmptyIdIsNilWithoutACall() async throws {
        let transport = try RecordingTransport(status: 200, fixture: "google_place_details_200")

        #expect(try await Values.places(transport).details(placeId: "", sessionToken: nil) == nil)
        #expect(await transport.requests.isEmpty)
    }

    @Test func detailsWithInvalidKeyIsMisconfiguredNotUnknownPlace() async throws {
        // Google answers a wrong key with 400 INVALID_ARGUMENT too; only the reason tells.
        let transport = try RecordingTransport(status: 400, fixture: "google_error_400_api_key_invalid")

        let error = await #expect(throws: ConciergeError.self) {
            try await Values.places(transport).details(placeId: Values.schipholId, sessionToken: nil)
        }

        #expect(error?.category == .upstreamFailed)
        #expect(error?.code == "places_failed")
        #expect(error?.message.contains("the maps provider is misconfigured") == true)
    }

    @Test func detailsWithoutLocationIsPlacesFailed() async throws {
        let body = Data(#"{"id":"ChIJx","displayName":{"text":"X"}}"#.utf8)

        let error = await #expect(throws: ConciergeError.self) {
            try await Values.places(RecordingTransport(status: 200, body: body)).details(
                placeId: "ChIJx", sessionToken: nil)
        }

        #expect(error?.code == "places_failed")
    }
}
