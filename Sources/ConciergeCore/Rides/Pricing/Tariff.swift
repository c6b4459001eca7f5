public import Foundation

/// The prices of one vehicle class. All amounts are integer cents (Rappen).
public struct ClassTariff: Sendable, Codable, Equatable {
    /// Charged on every ride.
    public var baseFareCents: Int
    /// Per kilometre of route distance (prorated to the metre).
    public var perKmCents: Int
    /// Per started minute of route duration.
    public var perMinuteCents: Int
    /// No ride costs less than this before adjustments.
    public var minimumFareCents: Int
    /// What the customer is promised, e.g. "Mercedes E-Class or similar".
    public var vehicle: String
    public var maxPassengers: Int

    public init(
        baseFareCents: Int, perKmCents: Int, perMinuteCents: Int, minimumFareCents: Int, vehicle: String,
        maxPassengers: Int
    ) {
        self.baseFareCents = baseFareCents
        self.perKmCents = perKmCents
        self.perMinuteCents = perMinuteCents
        self.minimumFareCents = minimumFareCents
        self.vehicle = vehicle
        self.maxPassengers = maxPassengers
    }

    private enum CodingKeys: String, CodingKey {
        case baseFareCents, perKmCents, perMinuteCents, minimumFareCents, vehicle, maxPassengers
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.baseFareCents = try container.decodeWholeNumber(forKey: .baseFareCents)
        self.perKmCents = try container.decodeWholeNumber(forKey: .perKmCents)
        self.perMinuteCents = try container.decodeWholeNumber(forKey: .perMinuteCents)
        self.minimumFareCents = try container.decodeWholeNumber(forKey: .minimumFareCents)
        self.vehicle = try container.decode(String.self, forKey: .vehicle)
        self.maxPassengers = try container.decodeWholeNumber(forKey: .maxPassengers)
    }
}

/// Every number the ride price depends on. This is configuration, not code: `standard` holds the
/// defaults (CHF) and `load(contentsOf:)` reads a JSON file such as `docs/tariff.example.json`:
///
/// ```json
/// {
///   "classes": {
///     "business": {"baseFareCents": 2000, "perKmCents": 350, "perMinuteCents": 100,
///                  "minimumFareCents": 8000, "vehicle": "Mercedes E-Class or similar", "maxPassengers": 3},
///     "first": {...}, "xl": {...}
///   },
///   "nightPercent": 20, "nightStartHour": 22, "nightEndHour": 6,
///   "weekendPercent": 10, "holidayPercent": 15, "airportPickupFeeCents": 1000,
///   "timeZone": "Europe/Zurich"
/// }
/// ```
///
/// Every field is required. See `PriceCalculator` for how the numbers combine.
public struct Tariff: Sendable, Codable, Equatable {
    /// One entry per vehicle class; a valid tariff has all of them.
    public var classes: [VehicleClass: ClassTariff]
    /// Surcharge for a pickup at night, in percent.
    public var nightPercent: Int
    /// Night starts at this local hour (inclusive)...
    public var nightStartHour: Int
    /// ...and ends at this local hour (exclusive). The window may wrap past midnight (22 → 6).
    public var nightEndHour: Int
    /// Surcharge for a pickup on a local Saturday or Sunday, in percent.
    public var weekendPercent: Int
    /// Surcharge for a pickup on a Swiss public holiday (see `SwissHolidays`), in percent.
    public var holidayPercent: Int
    /// Fixed fee for a pickup at an airport, in cents.
    public var airportPickupFeeCents: Int
    /// IANA time zone in which night, weekend and holiday are judged.
    public var timeZone: String

    public init(
        classes: [VehicleClass: ClassTariff], nightPercent: Int = 20, nightStartHour: Int = 22, nightEndHour: Int = 6,
        weekendPercent: Int = 10, holidayPercent: Int = 15, airportPickupFeeCents: Int = 1000,
        timeZone: String = "Europe/Zurich"
    ) {
        self.classes = classes
        self.nightPercent = nightPercent
        self.nightStartHour = nightStartHour
        self.nightEndHour = nightEndHour
        self.weekendPercent = weekendPercent
        self.holidayPercent = holidayPercent
        self.airportPickupFeeCents = airportPickupFeeCents
        self.timeZone = timeZone
    }

    /// The default tariff, in CHF.
    public static let standard = Tariff(classes: [
        .business: ClassTariff(
            baseFareCents: 2000, perKmCents: 350, perMinuteCents: 100, minimumFareCents: 8000,
            vehicle: "Mercedes E-Class or similar", maxPassengers: 3),
        .first: ClassTariff(
            baseFareCents: 3000, perKmCents: 480, perMinuteCents: 130, minimumFareCents: 12000,
            vehicle: "Mercedes S-Class or similar", maxPassengers: 3),
        .xl: ClassTariff(
            baseFareCents: 2500, perKmCents: 420, perMinuteCents: 115, minimumFareCents: 10000,
            vehicle: "Mercedes V-Class or similar", maxPassengers: 7),
    ])

    // MARK: Loading

    /// Reads, decodes and validates a tariff file. Errors name the file and the offending field.
    public static func load(contentsOf url: URL) throws(TariffError) -> Tariff {
        let file = url.path(percentEncoded: false)
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw TariffError(file: file, field: nil, problem: "cannot be read (\(error.localizedDescription))")
        }
        return try decode(data, file: file)
    }

    /// Decodes and validates tariff JSON; `file` only names the source in error messages.
    public static func decode(_ data: Data, file: String? = nil) throws(TariffError) -> Tariff {
        let tariff: Tariff
        do {
            tariff = try JSONDecoder().decode(Tariff.self, from: data)
        } catch let error as DecodingError {
            throw TariffError(decoding: error, file: file)
        } catch {
            throw TariffError(file: file, field: nil, problem: "cannot be decoded (\(error))")
        }
        try tariff.validate(file: file)
        return tariff
    }

    /// Checks every rule a usable tariff obeys: every class present, no negative amounts,
    /// at least one passenger and a vehicle description per class, percentages within 0...200,
    /// hours within 0...23 with a non-empty night window, and a time zone Foundation knows.
    public func validate(file: String? = nil) throws(TariffError) {
        func fail(_ field: String, _ problem: String) -> TariffError {
            TariffError(file: file, field: field, problem: problem)
        }
        for vehicleClass in VehicleClass.allCases {
            let prefix = "classes.\(vehicleClass.rawValue)"
            guard let tariff = classes[vehicleClass] else {
                throw fail(prefix, "is missing; every vehicle class (business, first, xl) needs a tariff")
            }
            let amounts: [(String, Int)] = [
                ("baseFareCents", tariff.baseFareCents), ("perKmCents", tariff.perKmCents),
                ("perMinuteCents", tariff.perMinuteCents), ("minimumFareCents", tariff.minimumFareCents),
            ]
            for (name, value) in amounts where value < 0 {
                throw fail("\(prefix).\(name)", "must not be negative (it is \(value))")
            }
            if tariff.vehicle.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                throw fail("\(prefix).vehicle", "must describe the vehicle (it is empty)")
            }
            if tariff.maxPassengers < 1 {
                throw fail("\(prefix).maxPassengers", "must be at least 1 (it is \(tariff.maxPassengers))")
            }
        }
        let percents = [
            ("nightPercent", nightPercent), ("weekendPercent", weekendPercent), ("holidayPercent", holidayPercent),
        ]
        for (name, value) in percents where !(0...200).contains(value) {
            throw fail(name, "must be a percentage between 0 and 200 (it is \(value))")
        }
        for (name, value) in [("nightStartHour", nightStartHour), ("nightEndHour", nightEndHour)]
        where !(0...23).contains(value) {
            throw fail(name, "must be an hour between 0 and 23 (it is \(value))")
        }
        if nightStartHour == nightEndHour {
            throw fail(
                "nightEndHour",
                "must differ from nightStartHour (both are \(nightEndHour)); set nightPercent to 0 to switch the night surcharge off"
            )
        }
        if airportPickupFeeCents < 0 {
            throw fail("airportPickupFeeCents", "must not be negative (it is \(airportPickupFeeCents))")
        }
        if TimeZone(identifier: timeZone) == nil {
            throw fail("timeZone", "must be a known IANA time zone such as \"Europe/Zurich\" (it is \"\(timeZone)\")")
        }
    }

    // MARK: Codable (classes as an object keyed by the class's wire name)

    private enum CodingKeys: String, CodingKey {
        case classes, nightPercent, nightStartHour, nightEndHour, weekendPercent, holidayPercent
        case airportPickupFeeCents, timeZone
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let named = try container.nestedContainer(keyedBy: NameKey.self, forKey: .classes)
        var classes: [VehicleClass: ClassTariff] = [:]
        for key in named.allKeys {
            guard let vehicleClass = VehicleClass(rawValue: key.stringValue) else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: named,
                    debugDescription: "is not a vehicle class; the classes are business, first and xl")
            }
            classes[vehicleClass] = try named.decode(ClassTariff.self, forKey: key)
        }
        self.classes = classes
        self.nightPercent = try container.decodeWholeNumber(forKey: .nightPercent)
        self.nightStartHour = try container.decodeWholeNumber(forKey: .nightStartHour)
        self.nightEndHour = try container.decodeWholeNumber(forKey: .nightEndHour)
        self.weekendPercent = try container.decodeWholeNumber(forKey: .weekendPercent)
        self.holidayPercent = try container.decodeWholeNumber(forKey: .holidayPercent)
        self.airportPickupFeeCents = try container.decodeWholeNumber(forKey: .airportPickupFeeCents)
        self.timeZone = try container.decode(String.self, forKey: .timeZone)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        let named = Dictionary(uniqueKeysWithValues: classes.map { ($0.key.rawValue, $0.value) })
        try container.encode(named, forKey: .classes)
        try container.encode(nightPercent, forKey: .nightPercent)
        try container.encode(nightStartHour, forKey: .nightStartHour)
        try container.encode(nightEndHour, forKey: .nightEndHour)
        try container.encode(weekendPercent, forKey: .weekendPercent)
        try container.encode(holidayPercent, forKey: .holidayPercent)
        try container.encode(airportPickupFeeCents, forKey: .airportPickupFeeCents)
        try container.encode(timeZone, forKey: .timeZone)
    }
}

/// A vehicle class name as a JSON key.
private struct NameKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension KeyedDecodingContainer {
    /// Like `decode(Int.self, forKey:)`, but a number that is not a whole number in range (`3.5`)
    /// is reported at its key: Foundation on Linux reports it as invalid JSON without a coding path.
    fileprivate func decodeWholeNumber(forKey key: Key) throws -> Int {
        do {
            return try decode(Int.self, forKey: key)
        } catch DecodingError.keyNotFound(let key, let context) {
            throw DecodingError.keyNotFound(key, context)
        } catch DecodingError.valueNotFound(let type, let context) {
            throw DecodingError.valueNotFound(type, context)
        } catch DecodingError.typeMismatch(let type, let context) {
            throw DecodingError.typeMismatch(type, context)
        } catch {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "must be a whole number that fits in 64 bits")
        }
    }
}

/// A tariff that cannot be used. `message` names the file (when there is one), the field as a
/// dotted JSON path (e.g. `classes.xl.perKmCents`) and what is wrong with it.
public struct TariffError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file the tariff came from; nil for a tariff built in code.
    public let file: String?
    /// Dotted JSON path of the offending field; nil when the file as a whole is unusable.
    public let field: String?
    /// What is wrong, phrased to follow the field name ("must not be negative (it is -5)").
    public let problem: String

    public init(file: String?, field: String?, problem: String) {
        self.file = file
        self.field = field
        self.problem = problem
    }

    public var message: String {
        let source = file.map { "Tariff file \($0)" } ?? "Tariff"
        if let field {
            return "\(source): field \"\(field)\" \(problem)."
        }
        return "\(source) \(problem)."
    }

    public var description: String { message }

    init(decoding error: DecodingError, file: String?) {
        func path(_ keys: [any CodingKey]) -> String? {
            guard !keys.isEmpty else { return nil }
            return keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            self.init(file: file, field: path(context.codingPath + [key]), problem: "is missing")
        case .typeMismatch(let type, let context):
            self.init(
                file: file, field: path(context.codingPath), problem: "has the wrong type (expected \(Self.name(type)))"
            )
        case .valueNotFound(let type, let context):
            self.init(file: file, field: path(context.codingPath), problem: "is null (expected \(Self.name(type)))")
        case .dataCorrupted(let context):
            if let field = path(context.codingPath) {
                self.init(file: file, field: field, problem: context.debugDescription)
            } else {
                self.init(file: file, field: nil, problem: "is not valid tariff JSON (\(context.debugDescription))")
            }
        @unknown default:
            self.init(file: file, field: nil, problem: "cannot be decoded (\(error))")
        }
    }

    private static func name(_ type: Any.Type) -> String {
        switch type {
        case is Int.Type: "a whole number"
        case is String.Type: "a string"
        default: "\(type)"
        }
    }
}
