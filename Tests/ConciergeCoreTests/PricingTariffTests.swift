import ConciergeCore
import Foundation
import Testing

@Suite struct PricingTariffTests {
    /// The package root, found from this file: Tests/ConciergeCoreTests/PricingTariffTests.swift.
    private static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private static let exampleFile = packageRoot.appendingPathComponent("docs/tariff.example.json")

    @Test func theExampleFileIsTheStandardTariff() throws {
        #expect(try Tariff.load(contentsOf: Self.exampleFile) == .standard)
    }

    @Test func theStandardTariffHasTheDocumentedNumbers() throws {
        let tariff = Tariff.standard
        try tariff.validate()
        #expect(tariff.classes.count == 3)
        #expect(
            tariff.classes[.business]
                == ClassTariff(
                    baseFareCents: 2000, perKmCents: 350, perMinuteCents: 100, minimumFareCents: 8000,
                    vehicle: "Mercedes E-Class or similar", maxPassengers: 3))
        #expect(tariff.classes[.first]?.maxPassengers == 3)
        #expect(tariff.classes[.xl]?.maxPassengers == 7)
        #expect(tariff.nightPercent == 20)
        #expect(tariff.nightStartHour == 22)
        #expect(tariff.nightEndHour == 6)
        #expect(tariff.weekendPercent == 10)
        #expect(tariff.holidayPercent == 15)
        #expect(tariff.airportPickupFeeCents == 1000)
        #expect(tariff.timeZone == "Europe/Zurich")
    }

    @Test func classesAreEncodedAsAnObjectKeyedByClassName() throws {
        let data = try JSONEncoder().encode(Tariff.standard)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let classes = try #require(object["classes"] as? [String: Any])
        #expect(Set(classes.keys) == ["business", "first", "xl"])
        #expect(try JSONDecoder().decode(Tariff.self, from: data) == .standard)
    }

    @Test func aTariffBuiltInCodeIsValidatedToo() {
        var tariff = Tariff.standard
        tariff.classes[.first] = nil
        #expect(throws: TariffError(file: nil, field: "classes.first", problem: Self.missingClass)) {
            try tariff.validate()
        }
    }

    private static let missingClass = "is missing; every vehicle class (business, first, xl) needs a tariff"

    // MARK: Invalid files

    /// An edit to the example file: the value at `path` becomes the JSON literal `value`, or is
    /// removed when `value` is nil.
    struct Edit: Sendable, CustomTestStringConvertible {
        let path: [String]
        let value: String?
        /// The field the error must name.
        let field: String
        /// Words the error must contain.
        let problem: String

        var testDescription: String { "\(path.joined(separator: ".")) = \(value ?? "removed")" }
    }

    @Test(arguments: [
        Edit(path: ["classes", "xl"], value: nil, field: "classes.xl", problem: "is missing"),
        Edit(path: ["classes", "business"], value: nil, field: "classes.business", problem: "is missing"),
        Edit(
            path: ["classes", "business", "perKmCents"], value: "-5", field: "classes.business.perKmCents",
            problem: "must not be negative (it is -5)"),
        Edit(
            path: ["classes", "first", "baseFareCents"], value: "-1", field: "classes.first.baseFareCents",
            problem: "must not be negative"),
        Edit(
            path: ["classes", "xl", "minimumFareCents"], value: "-100", field: "classes.xl.minimumFareCents",
            problem: "must not be negative"),
        Edit(
            path: ["classes", "xl", "perMinuteCents"], value: "-1", field: "classes.xl.perMinuteCents",
            problem: "must not be negative"),
        Edit(
            path: ["classes", "xl", "maxPassengers"], value: "0", field: "classes.xl.maxPassengers",
            problem: "must be at least 1"),
        Edit(path: ["classes", "first", "vehicle"], value: "\" \"", field: "classes.first.vehicle", problem: "empty"),
        Edit(path: ["classes", "first", "vehicle"], value: nil, field: "classes.first.vehicle", problem: "is missing"),
        Edit(
            path: ["classes", "business", "perKmCents"], value: "\"350\"", field: "classes.business.perKmCents",
            problem: "wrong type"),
        Edit(
            path: ["classes", "business", "perKmCents"], value: "3.5", field: "classes.business.perKmCents",
            problem: "must be a whole number"),
        Edit(path: ["nightPercent"], value: "1e30", field: "nightPercent", problem: "must be a whole number"),
        Edit(
            path: ["classes", "economy"], value: "{}", field: "classes.economy",
            problem: "is not a vehicle class; the classes are business, first and xl"),
        Edit(path: ["timeZone"], value: "\"Europe/Zurch\"", field: "timeZone", problem: "known IANA time zone"),
        Edit(path: ["timeZone"], value: "\"\"", field: "timeZone", problem: "known IANA time zone"),
        Edit(path: ["timeZone"], value: "null", field: "timeZone", problem: "is null"),
        Edit(path: ["nightPercent"], value: nil, field: "nightPercent", problem: "is missing"),
        Edit(path: ["nightPercent"], value: "-10", field: "nightPercent", problem: "between 0 and 200"),
        Edit(path: ["weekendPercent"], value: "201", field: "weekendPercent", problem: "between 0 and 200 (it is 201)"),
        Edit(path: ["holidayPercent"], value: "-1", field: "holidayPercent", problem: "between 0 and 200"),
        Edit(path: ["nightStartHour"], value: "24", field: "nightStartHour", problem: "between 0 and 23"),
        Edit(path: ["nightEndHour"], value: "-1", field: "nightEndHour", problem: "between 0 and 23"),
        Edit(path: ["nightEndHour"], value: "22", field: "nightEndHour", problem: "must differ from nightStartHour"),
        Edit(
            path: ["airportPickupFeeCents"], value: "-1000", field: "airportPickupFeeCents",
            problem: "must not be negative"),
    ])
    func anInvalidFileIsRejectedNamingTheFileAndTheField(edit: Edit) throws {
        var object = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: Self.exampleFile)) as? [String: Any])
        let value = try edit.value.map { literal in
            try #require(try JSONSerialization.jsonObject(with: Data("[\(literal)]".utf8)) as? [Any]).first
        }
        Self.set(&object, at: edit.path[...], to: value ?? nil)
        let file = try Self.writeTemporaryFile(JSONSerialization.data(withJSONObject: object))
        defer { try? FileManager.default.removeItem(at: file) }

        let error = try #require(throws: TariffError.self) { try Tariff.load(contentsOf: file) }
        #expect(error.field == edit.field)
        #expect(error.file == file.path(percentEncoded: false))
        #expect(error.problem.contains(edit.problem))
        #expect(error.message.contains(file.path(percentEncoded: false)))
        #expect(error.message.contains("\"\(edit.field)\""))
    }

    @Test func aFileThatIsNotJSONIsRejectedNamingTheFile() throws {
        let file = try Self.writeTemporaryFile(Data("nightPercent = 20".utf8))
        defer { try? FileManager.default.removeItem(at: file) }
        let error = try #require(throws: TariffError.self) { try Tariff.load(contentsOf: file) }
        #expect(error.field == nil)
        #expect(error.message.contains(file.path(percentEncoded: false)))
        #expect(error.message.contains("not valid tariff JSON"))
    }

    @Test func aMissingFileIsRejectedNamingTheFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-tariff-\(UUID()).json")
        let error = try #require(throws: TariffError.self) { try Tariff.load(contentsOf: file) }
        #expect(error.field == nil)
        #expect(error.message.contains(file.path(percentEncoded: false)))
        #expect(error.message.contains("cannot be read"))
    }

    private static func writeTemporaryFile(_ data: Data) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tariff-test-\(UUID()).json")
        try data.write(to: file)
        return file
    }

    private static func set(_ object: inout [String: Any], at path: ArraySlice<String>, to value: Any?) {
        guard let key = path.first else { return }
        if path.count == 1 {
            object[key] = value
        } else {
            var child = object[key] as? [String: Any] ?? [:]
            set(&child, at: path.dropFirst(), to: value)
            object[key] = child
        }
    }
}
