import ConciergeModels
import ConciergeTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Places and pricing over HTTP, offline: the gazetteer and the route estimator.
@Suite struct RidesPlacesAndPricingHTTPTests {
    static let zurichAirport = "gz_iata_ZRH"
    static let zurich = "gz_geo_2657896"
    static let geneva = "gz_geo_2660646"
    static let newYork = "gz_iata_JFK"

    /// Saturday 16 January 2027, 14:00 in Zurich.
    static let saturdayAfternoon = "2027-01-16T13:00:00.000Z"

    static func make() async throws -> TestApp {
        // The test clock starts on 2027-01-15, so these pickups are in the future.
        try await TestApp.make(engine: .sqlite)
    }

    @Test func autocompleteFindsTheAirportByItsCode() async throws {
        try await Self.make().run { client in
            let response = try await client.send(.get, "/rides/places/autocomplete?input=ZRH&sessionToken=abc")
            #expect(response.status == .ok)
            let suggestions = try response.decode(PlacesAutocompleteResponse.self).suggestions
            #expect(suggestions.first?.placeId == Self.zurichAirport)
            #expect(suggestions.first?.kind == "airport")
            #expect(suggestions.count <= 10)
        }
    }

    @Test func autocompleteIgnoresAccentsAndUsesThePosition() async throws {
        try await Self.make().run { client in
            let response = try await client.send(.get, "/rides/places/autocomplete?input=gen%C3%A8ve&lat=46.2&lon=6.1")
            let suggestions = try response.decode(PlacesAutocompleteResponse.self).suggestions
            #expect(suggestions.contains { $0.placeId == Self.geneva })
        }
    }

    @Test(arguments: [
        "/rides/places/autocomplete", "/rides/places/autocomplete?input=",
        "/rides/places/autocomplete?input=zur&lat=47",
        "/rides/places/autocomplete?input=zur&lat=100&lon=8", "/rides/places/autocomplete?input=zur&lat=abc&lon=8",
    ])
    func badAutocompleteParametersAre400(uri: String) async throws {
        try await Self.make().run { client in
            let response = try await client.send(.get, uri)
            #expect(response.status == .badRequest)
            #expect(response.errorBody?.code == "invalid_request")
        }
    }

    @Test func placeDetailsAndUnknownPlace() async throws {
        try await Self.make().run { client in
            let response = try await client.send(.get, "/rides/places/\(Self.zurichAirport)")
            #expect(response.status == .ok)
            let place = try response.decode(PlaceDetailsResponse.self)
            #expect(place.name == "Zurich Airport")
            #expect(place.kind == "airport")
            #expect(place.timeZone == "Europe/Zurich")
            let unknown = try await client.send(.get, "/rides/places/gz_geo_1")
            #expect(unknown.status == .notFound)
            #expect(unknown.errorBody?.code == "place_not_found")
        }
    }

    @Test func pricingReturnsEveryClassWithTheContractsShape() async throws {
        try await Self.make().run { client in
            let response = try await client.send(
                .get,
                "/rides/pricing?originPlaceId=\(Self.zurichAirport)&destinationPlaceId=\(Self.zurich)&pickupDatetime=\(Self.saturdayAfternoon)"
            )
            #expect(response.status == .ok)
            let pricing = try response.decode(PricingResponse.self)
            #expect(pricing.success)
            #expect(pricing.currency == "CHF")
            #expect(pricing.distanceKm > 5 && pricing.distanceKm < 25)
            #expect(pricing.durationMinutes > 5 && pricing.durationMinutes < 45)
            #expect(pricing.pickupDatetime == Self.saturdayAfternoon)
            for price in [pricing.prices.business, pricing.prices.first, pricing.prices.xl] {
                #expect(price.priceCents % 5 == 0)
                #expect(
                    price.priceFormatted
                        == "CHF \(price.priceCents / 100).\(String(format: "%02d", price.priceCents % 100))")
            }
            #expect(pricing.prices.xl.maxPassengers == 7)
            #expect(pricing.prices.business.maxPassengers == 3)
            #expect(pricing.prices.first.priceCents > pricing.prices.business.priceCents)
            // A Saturday pickup at the airport: the weekend surcharge and the airport fee.
            #expect(pricing.adjustments.map(\.code) == ["weekend", "airport_pickup"])
            #expect(pricing.adjustments.first?.percent == 10)
        }
    }

    static let badPricing: [(query: String, status: Int, code: String)] = [
        ("destinationPlaceId=\(zurich)&pickupDatetime=\(saturdayAfternoon)", 400, "invalid_request"),
        ("originPlaceId=\(zurichAirport)&pickupDatetime=\(saturdayAfternoon)", 400, "invalid_request"),
        ("originPlaceId=\(zurichAirport)&destinationPlaceId=\(zurich)", 400, "invalid_request"),
        ("originPlaceId=\(zurichAirport)&destinationPlaceId=\(zurich)&pickupDatetime=tomorrow", 400, "invalid_request"),
        (
            "originPlaceId=\(zurichAirport)&destinationPlaceId=\(zurich)&pickupDatetime=2020-01-01T10:00:00Z", 400,
            "invalid_pickup_time"
        ),
        (
            "originPlaceId=\(zurichAirport)&destinationPlaceId=\(zurich)&pickupDatetime=2031-01-01T10:00:00Z", 400,
            "invalid_pickup_time"
        ),
        (
            "originPlaceId=nowhere&destinationPlaceId=\(zurich)&pickupDatetime=\(saturdayAfternoon)", 400,
            "invalid_place"
        ),
        (
            "originPlaceId=\(zurichAirport)&destinationPlaceId=ChIJxyz&pickupDatetime=\(saturdayAfternoon)", 400,
            "invalid_place"
        ),
        (
            "originPlaceId=\(zurich)&destinationPlaceId=\(zurich)&pickupDatetime=\(saturdayAfternoon)", 502,
            "route_failed"
        ),
        (
            "originPlaceId=\(zurichAirport)&destinationPlaceId=\(newYork)&pickupDatetime=\(saturdayAfternoon)", 502,
            "route_failed"
        ),
        (
            "originPlaceId=\(zurich)&destinationPlaceId=gz_iata_LIS&pickupDatetime=\(saturdayAfternoon)", 502,
            "route_failed"
        ),
    ]

    @Test(arguments: badPricing)
    func everyPricingErrorHasItsStatusAndCode(query: String, status: Int, code: String) async throws {
        try await Self.make().run { client in
            let response = try await client.send(.get, "/rides/pricing?\(query)")
            #expect(response.status.code == status, "\(query)")
            #expect(response.errorBody?.code == code, "\(query)")
            #expect(response.errorBody?.error.isEmpty == false)
        }
    }
}
