import ConciergeKit
import Foundation
import Testing

@Suite("CountryCode")
struct CountryCodeTests {
    @Test func listsEveryRegionOnce() {
        let all = CountryCode.all
        #expect(all.count > 200)
        #expect(Set(all.map(\.regionCode)).count == all.count)
        #expect(Set(all.map(\.id)).count == all.count)
        #expect(!all.contains { $0.regionCode == "001" })
        for country in all {
            #expect(country.regionCode.count == 2, "\(country.regionCode)")
            #expect(!country.name.isEmpty, "\(country.regionCode)")
            #expect(country.dialCode.hasPrefix("+"), "\(country.regionCode)")
            let codeIsDigits = country.dialCode.dropFirst().allSatisfy { ("0"..."9").contains($0) }
            #expect(codeIsDigits, "\(country.regionCode)")
            #expect(CountryCode.forRegion(country.regionCode) == country)
        }
    }

    @Test func sortedByNameIgnoringCaseAndAccents() {
        func key(_ name: String) -> String {
            String(
                String.UnicodeScalarView(
                    name.decomposedStringWithCanonicalMapping.unicodeScalars.filter {
                        $0.properties.generalCategory != .nonspacingMark
                    })
            ).lowercased()
        }
        let keys = CountryCode.all.map { key($0.name) }
        #expect(keys == keys.sorted())
        #expect(CountryCode.all.first?.name == "Afghanistan")
    }

    @Test func switzerland() {
        let swiss = CountryCode.switzerland
        #expect(swiss.regionCode == "CH")
        #expect(swiss.name == "Switzerland")
        #expect(swiss.dialCode == "+41")
        #expect(swiss.flag == "🇨🇭")
        #expect(swiss.id == "CH")
        #expect(CountryCode.forRegion("CH") == swiss)
        #expect(CountryCode.all.contains(swiss))
    }

    @Test(arguments: [
        ("DE", "Germany", "+49", "🇩🇪"),
        ("US", "United States", "+1", "🇺🇸"),
        ("CA", "Canada", "+1", "🇨🇦"),
        ("IT", "Italy", "+39", "🇮🇹"),
        ("VA", "Vatican City", "+39", "🇻🇦"),
        ("GB", "United Kingdom", "+44", "🇬🇧"),
        ("LI", "Liechtenstein", "+423", "🇱🇮"),
        ("RU", "Russia", "+7", "🇷🇺"),
        ("KZ", "Kazakhstan", "+7", "🇰🇿"),
        ("TW", "Taiwan", "+886", "🇹🇼"),
        ("XK", "Kosovo", "+383", "🇽🇰"),
    ])
    func knownRegions(region: String, name: String, dialCode: String, flag: String) throws {
        let country = try #require(CountryCode.forRegion(region))
        #expect(country.name == name)
        #expect(country.dialCode == dialCode)
        #expect(country.flag == flag)
    }

    @Test func lookupIgnoresCaseAndRejectsUnknown() {
        #expect(CountryCode.forRegion("de")?.dialCode == "+49")
        #expect(CountryCode.forRegion(" ch ")?.name == "Switzerland")
        #expect(CountryCode.forRegion("ZZ") == nil)
        #expect(CountryCode.forRegion("001") == nil)
        #expect(CountryCode.forRegion("") == nil)
    }

    @Test func flagNeedsTwoLetters() {
        #expect(CountryCode(regionCode: "ch", name: "x", dialCode: "+41").flag == "🇨🇭")
        #expect(CountryCode(regionCode: "C1", name: "x", dialCode: "+1").flag == "")
        #expect(CountryCode(regionCode: "CHE", name: "x", dialCode: "+41").flag == "")
    }

    @Test func codableRoundTrip() throws {
        let data = try JSONEncoder().encode(CountryCode.switzerland)
        let json = try #require(String(data: data, encoding: .utf8))
        #expect(json.contains("\"regionCode\":\"CH\""))
        #expect(try JSONDecoder().decode(CountryCode.self, from: data) == .switzerland)
    }

    @Test(arguments: [
        // Swiss national formats: the trunk 0 is dropped.
        ("CH", "079 123 45 67", "+41791234567"),
        ("CH", "0791234567", "+41791234567"),
        ("CH", "079-123-45-67", "+41791234567"),
        ("CH", "079.123.45.67", "+41791234567"),
        ("CH", "(079) 123 45 67", "+41791234567"),
        ("CH", "  044 668 18 00 ", "+41446681800"),
        ("CH", "79 123 45 67", "+41791234567"),
        // Already international: kept, normalised.
        ("CH", "+41 79 123 45 67", "+41791234567"),
        ("CH", "0041 79 123 45 67", "+41791234567"),
        ("CH", "+41 (0)79 123 45 67", "+41791234567"),
        ("CH", "(+41) 79 123 45 67", "+41791234567"),
        ("CH", "+49 (30) 123-4567", "+49301234567"),
        ("DE", "00 49 30 1234567", "+49301234567"),
        // Germany and the US.
        ("DE", "030 1234567", "+49301234567"),
        ("DE", "0171/1234567", "+491711234567"),
        ("US", "(212) 555-0123", "+12125550123"),
        // Italy, San Marino and the Vatican keep the 0.
        ("IT", "06 1234 5678", "+390612345678"),
        ("IT", "333 123 4567", "+393331234567"),
        ("SM", "0549 886377", "+3780549886377"),
        ("VA", "06 6988 3712", "+390669883712"),
        // National number of exactly 4 and 14 digits.
        ("CH", "01234", "+411234"),
        ("US", "12345678901234", "+112345678901234"),
    ])
    func composesE164(region: String, input: String, expected: String) throws {
        let country = try #require(CountryCode.forRegion(region))
        #expect(country.e164(input) == expected)
    }

    @Test(arguments: [
        ("CH", ""),
        ("CH", "   "),
        ("CH", "123"),  // 3 digits
        ("CH", "0123"),  // 3 digits once the trunk 0 is gone
        ("IT", "123"),
        ("US", "123456789012345"),  // 15-digit national number
        ("CH", "12345678901234"),  // 14 + "41" exceeds E.164's 15 digits
        ("CH", "079 ABC 45 67"),
        ("CH", "079 123 45 67 ext 2"),
        ("CH", "+41 79 12x"),
        ("CH", "+"),
        ("CH", "00"),
        ("CH", "+123"),  // too short for an international number
        ("CH", "+1234567890123456"),  // 16 digits
        ("CH", "+041 79 123 45 67"),  // country codes never start with 0
        ("CH", "٠٧٩١٢٣٤٥٦٧"),  // non-ASCII digits
        ("CH", "079+1234567"),
        ("CH", "(+41) 79"),  // too short
    ])
    func rejectsNonNumbers(region: String, input: String) throws {
        let country = try #require(CountryCode.forRegion(region))
        #expect(country.e164(input) == nil)
    }
}
