import ConciergeKit
import Testing

@Suite("String.toVehicleClass")
struct VehicleClassTests {
    @Test(arguments: [
        ("Business", "business"),
        ("business", "business"),
        ("business class", "business"),
        ("Business Class", "business"),
        ("BUSINESS CLASS", "business"),
        ("  Business   Class ", "business"),
        ("Business-Class", "business"),
        ("First", "first"),
        ("First Class", "first"),
        ("first_class", "first"),
        ("XL", "xl"),
        ("xl", "xl"),
        ("Van", "xl"),
        ("XL Van", "xl"),
        ("xl-van", "xl"),
    ])
    func mapsDisplayNames(input: String, expected: String) {
        #expect(input.toVehicleClass == expected)
    }

    @Test(arguments: [
        (" Limousine ", "limousine"),
        ("Economy Plus", "economy plus"),
        ("", ""),
        ("Business Van", "business van"),
    ])
    func passesOtherValuesThroughTrimmedAndLowercased(input: String, expected: String) {
        #expect(input.toVehicleClass == expected)
    }
}
