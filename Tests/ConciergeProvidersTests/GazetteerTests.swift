import ConciergeCore
import Testing

@testable import ConciergeProviders

/// Autocomplete and details over the real embedded data.
@Suite struct GazetteerTests {
    static let gazetteer: Gazetteer = {
        do { return try Gazetteer.bundled() } catch { fatalError("embedded data missing: \(error)") }
    }()

    func top(_ input: String, near: Coordinate? = nil) -> [PlaceSuggestion] {
        Self.gazetteer.suggestions(for: input, near: near)
    }

    @Test func theDataCoversSwissPlacesNeighbouringCitiesAndEveryIATAAirport() async throws {
        #expect(Self.gazetteer.count > 12_000)
        let places = Self.gazetteer.places
        #expect(places.filter { $0.kind == .airport }.count > 7_000)
        #expect(places.filter { $0.countryCode == "CH" && $0.kind == .city }.count > 1_500)
        #expect(places.contains { $0.countryCode == "LI" && $0.name == "Vaduz" })
        #expect(places.contains { $0.countryCode == "DE" && $0.name == "Konstanz" })
    }

    @Test(arguments: ["zurich", "Zurich", "ZÜRICH", "zürich"])
    func matchingIgnoresCaseAndDiacritics(input: String) {
        #expect(top(input).first?.mainText == "Zürich")
        #expect(top(input).dropFirst().first?.placeId == "gz_iata_ZRH")
    }

    @Test func aPartialNameOffersTheCityAndItsAirport() {
        let ids = top("zuri").prefix(2).map(\.placeId)
        #expect(Set(ids) == ["gz_geo_2657896", "gz_iata_ZRH"])
    }

    @Test func anIATACodePutsItsAirportFirst() {
        #expect(top("ZRH").first?.placeId == "gz_iata_ZRH")
        #expect(top("zrh").first?.mainText == "Zurich Airport (ZRH)")
        #expect(top("GVA").first?.placeId == "gz_iata_GVA")
    }

    @Test(arguments: ["Genf", "Genève", "Geneva", "Ginevra", "geneve"])
    func alternateNamesFindTheSamePlace(input: String) {
        #expect(top(input).contains { $0.placeId == "gz_geo_2660646" })
        #expect(top(input).first?.placeId == "gz_geo_2660646" || top(input).first?.kind == .airport)
    }

    @Test func anyWordsPrefixMatches() {
        #expect(top("airport zur").first?.placeId == "gz_iata_ZRH")
        #expect(top("zurich air").first?.placeId == "gz_iata_ZRH")
    }

    @Test(arguments: ["zurivh", "zruich", "genevq", "lausane", "luzerne"])
    func oneTypoIsToleratedFromFiveCharacters(input: String) {
        #expect(!top(input).isEmpty, "\(input)")
        #expect(top(input).first?.kind == .city || top(input).first?.kind == .airport)
    }

    @Test func shortInputsDoNotMatchWithTypos() {
        #expect(top("zrich").prefix(3).contains { $0.placeId == "gz_iata_ZRH" || $0.placeId == "gz_geo_2657896" })
        #expect(!top("xuri").contains { $0.mainText == "Zürich" })
    }

    @Test func proximityDecidesBetweenPlacesOfTheSameName() {
        // Two towns called Buchs: the one in St. Gallen is bigger, the one in Aargau wins near Aarau.
        #expect(top("Buchs").first?.secondaryText == "St. Gallen, Switzerland")
        #expect(
            top("Buchs", near: Coordinate(latitude: 47.39, longitude: 8.08)).first?.secondaryText
                == "Aargau, Switzerland")
    }

    @Test func anExactTownNameBeatsFarAwayPrefixMatchesNearby() {
        // "WIL" is also Nairobi Wilson's IATA code; near St. Gallen the Swiss town comes first.
        #expect(top("Wil").first?.placeId == "gz_iata_WIL")
        #expect(
            top("Wil", near: Coordinate(latitude: 47.42, longitude: 9.37)).first?.secondaryText
                == "St. Gallen, Switzerland")
    }

    @Test func atMostTenSuggestionsAndNothingForNothing() {
        #expect(top("s").count == 10)
        #expect(top("").isEmpty)
        #expect(top("   ,;  ").isEmpty)
        #expect(top("qqqqqqqqqqqq").isEmpty)
    }

    @Test func detailsCarryCoordinatesKindAndTimeZone() async throws {
        let airport = try #require(try await Self.gazetteer.details(placeId: "gz_iata_ZRH", sessionToken: nil))
        #expect(airport.name == "Zurich Airport")
        #expect(airport.kind == .airport)
        #expect(airport.timeZone == "Europe/Zurich")
        #expect(abs(airport.coordinate.latitude - 47.4647) < 0.001)
        #expect(try await Self.gazetteer.details(placeId: "gz_geo_0", sessionToken: nil) == nil)
        #expect(try await Self.gazetteer.details(placeId: "ChIJ-not-ours", sessionToken: nil) == nil)
    }

    @Test func prefixWithinOneEditCoversTheFourRepairs() {
        func check(_ q: String, _ w: String) -> Bool {
            isPrefixWithinOneEdit(Array(q.utf8)[...], of: Array(w.utf8)[...])
        }
        #expect(check("zuric", "zurich"))
        #expect(check("zurvc", "zurich"))  // substitution
        #expect(check("zurixch", "zurich"))  // extra character
        #expect(check("zrich", "zurich"))  // missing character
        #expect(check("zruich", "zurich"))  // swapped neighbours
        #expect(!check("zrvich", "zurich"))
        #expect(!check("abcdef", "zurich"))
    }
}
