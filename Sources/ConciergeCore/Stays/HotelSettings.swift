public import Foundation

/// A hotel as configuration: its settings, room types, rates and closures. Loaded from the JSON
/// file `CONCIERGE_STAYS_HOTEL_PATH`, or the built-in demo hotel (`HotelSettings.demo`). Every
/// key has a default, so a file only names what differs.
public struct HotelSettings: Codable, Sendable, Equatable {
    public var name = "Hotel Concierge Demo"
    /// IANA zone the nights are counted in.
    public var timeZone = "Europe/Zurich"
    public var currency = "CHF"
    /// VAT on accommodation, included in the rates (Switzerland: 3.8 %).
    public var vatPercent = 3.8
    /// City tax per person per night, added on top (shown as `taxPrice`).
    public var cityTaxCentsPerPersonNight = 250
    public var checkInHour = 15
    public var checkOutHour = 11
    public var maxNights = 30
    public var maxDaysAhead = 365
    public var maxGuests = 8
    public var roomTypes: [RoomType] = RoomType.demo
    /// Percent added (or, negative, taken off) on the nights of these weekdays
    /// (1 = Sunday … 7 = Saturday, as `Calendar` counts); default Friday and Saturday nights.
    public var weekend = WeekendRule()
    public var seasons: [Season] = []
    public var closures: [Closure] = []

    public init() {}

    public static let demo = HotelSettings()

    public func roomType(id: Int64) -> RoomType? { roomTypes.first { $0.id == id } }

    public var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: timeZone) ?? TimeZone(secondsFromGMT: 0)!
        return calendar
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = HotelSettings()
        func value<T: Decodable>(_ key: CodingKeys, _ fallback: T) throws -> T {
            try container.decodeIfPresent(T.self, forKey: key) ?? fallback
        }
        name = try value(.name, defaults.name)
        timeZone = try value(.timeZone, defaults.timeZone)
        currency = try value(.currency, defaults.currency)
        vatPercent = try value(.vatPercent, defaults.vatPercent)
        cityTaxCentsPerPersonNight = try value(.cityTaxCentsPerPersonNight, defaults.cityTaxCentsPerPersonNight)
        checkInHour = try value(.checkInHour, defaults.checkInHour)
        checkOutHour = try value(.checkOutHour, defaults.checkOutHour)
        maxNights = try value(.maxNights, defaults.maxNights)
        maxDaysAhead = try value(.maxDaysAhead, defaults.maxDaysAhead)
        maxGuests = try value(.maxGuests, defaults.maxGuests)
        roomTypes = try value(.roomTypes, defaults.roomTypes)
        weekend = try value(.weekend, defaults.weekend)
        seasons = try value(.seasons, defaults.seasons)
        closures = try value(.closures, defaults.closures)
    }

    /// Reads and checks a hotel file; the error names what is wrong.
    public static func load(contentsOf url: URL) throws -> HotelSettings {
        let settings = try JSONDecoder().decode(HotelSettings.self, from: Data(contentsOf: url))
        try settings.validate()
        return settings
    }

    public func validate() throws(ConciergeError) {
        let problems = self.problems()
        guard problems.isEmpty else {
            throw ConciergeError(
                .invalidInput, code: "invalid_hotel",
                message: problems.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "; "))
        }
    }

    /// What is wrong, by field (`roomTypes[2].rooms` for a room type's): empty when the hotel
    /// can be run. The admin API answers these per field; a hotel file that has any stops the start.
    public func problems() -> [String: String] {
        var problems: [String: String] = [:]
        if TimeZone(identifier: timeZone) == nil { problems["timeZone"] = "'\(timeZone)' is not an IANA zone." }
        if currency.count != 3 || !currency.allSatisfy({ $0.isASCII && $0.isUppercase }) {
            problems["currency"] = "Use a three-letter code in capitals, like CHF."
        }
        if name.trimmingCharacters(in: .whitespaces).isEmpty || name.count > 120 {
            problems["name"] = "Name the hotel in 1 to 120 characters."
        }
        if !(0...100).contains(vatPercent) { problems["vatPercent"] = "VAT is 0 to 100 percent." }
        if !(0...100_000).contains(cityTaxCentsPerPersonNight) {
            problems["cityTaxCentsPerPersonNight"] = "The city tax is 0 to 100000 cents per person per night."
        }
        if !(0...23).contains(checkInHour) { problems["checkInHour"] = "Give an hour from 0 to 23." }
        if !(0...23).contains(checkOutHour) { problems["checkOutHour"] = "Give an hour from 0 to 23." }
        if !(1...365).contains(maxNights) { problems["maxNights"] = "A stay may be 1 to 365 nights long." }
        if !(1...1000).contains(maxDaysAhead) { problems["maxDaysAhead"] = "Open 1 to 1000 days ahead." }
        if !(1...50).contains(maxGuests) { problems["maxGuests"] = "A party is 1 to 50 people." }
        if roomTypes.isEmpty { problems["roomTypes"] = "The hotel needs at least one room type." }
        if Set(roomTypes.map(\.id)).count != roomTypes.count { problems["roomTypes"] = "Room type ids must differ." }
        for type in roomTypes {
            let field = "roomTypes[\(type.id)]"
            if type.id <= 0 || type.id > 1_000_000 { problems["\(field).id"] = "An id is 1 to 1000000." }
            if type.type.trimmingCharacters(in: .whitespaces).isEmpty || type.type.count > 40 {
                problems["\(field).type"] = "Name the room type in 1 to 40 characters."
            }
            if type.description.count > 500 { problems["\(field).description"] = "At most 500 characters." }
            if !(1...50).contains(type.capacity) { problems["\(field).capacity"] = "A room holds 1 to 50 people." }
            if !(0...100_000).contains(type.rooms) { problems["\(field).rooms"] = "Give 0 to 100000 rooms." }
            if !(1...100_000_000).contains(type.baseRateCents) {
                problems["\(field).baseRateCents"] = "The base rate is 1 to 100000000 cents per night."
            }
            if !(1...365).contains(type.minimumStay) { problems["\(field).minimumStay"] = "1 to 365 nights." }
            if !Self.isImageName(type.image) {
                problems["\(field).image"] =
                    "An image name is 1 to 100 of a-z A-Z 0-9 . _ - (a file under /stays/images/)."
            }
        }
        if !weekend.weekdays.allSatisfy({ (1...7).contains($0) }) || !(-90...500).contains(weekend.percent) {
            problems["weekend"] = "Weekdays are 1 (Sunday) to 7 (Saturday); the percent is -90 to 500."
        }
        for (index, season) in seasons.enumerated() {
            if let from = StayNight(season.from), let to = StayNight(season.to) {
                if to < from { problems["seasons[\(index)].to"] = "A season ends on or after it starts." }
            } else {
                problems["seasons[\(index)]"] = "Give from and to as YYYY-MM-DD."
            }
            if !(-90...500).contains(season.percent) { problems["seasons[\(index)].percent"] = "-90 to 500 percent." }
        }
        for (index, closure) in closures.enumerated() {
            if let from = StayNight(closure.from), let to = StayNight(closure.to) {
                if to < from { problems["closures[\(index)].to"] = "A closure ends on or after it starts." }
            } else {
                problems["closures[\(index)]"] = "Give from and to as YYYY-MM-DD."
            }
            let unknown = (closure.roomTypeIds ?? []).filter { roomType(id: $0) == nil }
            if !unknown.isEmpty {
                problems["closures[\(index)].roomTypeIds"] =
                    "There is no room type \(unknown.map(String.init).joined(separator: ", "))."
            }
        }
        return problems
    }

    /// A file name under `/stays/images/`: letters, digits, dots, dashes and underscores, and no
    /// leading dot, so it can never name a path.
    public static func isImageName(_ name: String) -> Bool {
        (1...100).contains(name.count) && !name.hasPrefix(".")
            && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
    }
}

extension HotelSettings {
    /// A kind of room, how many of it the hotel has, and its base rate per night.
    public struct RoomType: Codable, Sendable, Equatable {
        public var id: Int64
        /// `Family`, `Individual`, `Double` or `Suite` (the seed's names).
        public var type: String
        public var description: String
        /// People a room holds.
        public var capacity: Int
        /// Rooms of this type.
        public var rooms: Int
        public var baseRateCents: Int
        /// File name under `/stays/images/`.
        public var image: String
        public var minimumStay: Int
        public var paymentPolicy: PaymentPolicy

        public init(
            id: Int64, type: String, description: String, capacity: Int, rooms: Int, baseRateCents: Int,
            image: String, minimumStay: Int = 1, paymentPolicy: PaymentPolicy = .payAtHotel
        ) {
            self.id = id
            self.type = type
            self.description = description
            self.capacity = capacity
            self.rooms = rooms
            self.baseRateCents = baseRateCents
            self.image = image
            self.minimumStay = minimumStay
            self.paymentPolicy = paymentPolicy
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(Int64.self, forKey: .id)
            type = try container.decode(String.self, forKey: .type)
            description = try container.decodeIfPresent(String.self, forKey: .description) ?? type
            capacity = try container.decode(Int.self, forKey: .capacity)
            rooms = try container.decode(Int.self, forKey: .rooms)
            baseRateCents = try container.decode(Int.self, forKey: .baseRateCents)
            image = try container.decodeIfPresent(String.self, forKey: .image) ?? "\(type.lowercased()).svg"
            minimumStay = try container.decodeIfPresent(Int.self, forKey: .minimumStay) ?? 1
            paymentPolicy = try container.decodeIfPresent(PaymentPolicy.self, forKey: .paymentPolicy) ?? .payAtHotel
        }

        /// The seed's four room types.
        public static let demo: [RoomType] = [
            RoomType(
                id: 1, type: "Individual", description: "Quiet single room with a desk and a view of the old town.",
                capacity: 1, rooms: 10, baseRateCents: 12_000, image: "individual.svg"),
            RoomType(
                id: 2, type: "Double", description: "Double room with a queen-size bed and a rain shower.",
                capacity: 2, rooms: 12, baseRateCents: 18_000, image: "double.svg"),
            RoomType(
                id: 3, type: "Family", description: "Two connected rooms for up to four, with a bath and a sofa bed.",
                capacity: 4, rooms: 6, baseRateCents: 26_000, image: "family.svg", minimumStay: 2),
            RoomType(
                id: 4, type: "Suite", description: "Corner suite with a living room, a balcony and a lake view.",
                capacity: 3, rooms: 2, baseRateCents: 45_000, image: "suite.svg"),
        ]
    }

    public enum PaymentPolicy: String, Codable, Sendable, Equatable {
        case payAtHotel = "pay_at_hotel"
        case prepay
    }

    public struct WeekendRule: Codable, Sendable, Equatable {
        public var weekdays: [Int] = [6, 7]
        public var percent: Double = 15

        public init() {}
    }

    /// A percent change on every night from `from` to `to` (both included), e.g. the winter
    /// holidays; the latest matching season wins.
    public struct Season: Codable, Sendable, Equatable {
        public var name: String
        public var from: String
        public var to: String
        public var percent: Double

        public init(name: String, from: String, to: String, percent: Double) {
            self.name = name
            self.from = from
            self.to = to
            self.percent = percent
        }
    }

    /// Nights from `from` to `to` (both included) that cannot be sold: every room type, or
    /// the ones named.
    public struct Closure: Codable, Sendable, Equatable {
        /// Given by the admin API when it adds a closure; a hotel file's closures get theirs on first start.
        public var id: Int64?
        public var from: String
        public var to: String
        public var roomTypeIds: [Int64]?
        public var reason: String?

        public init(id: Int64? = nil, from: String, to: String, roomTypeIds: [Int64]? = nil, reason: String? = nil) {
            self.id = id
            self.from = from
            self.to = to
            self.roomTypeIds = roomTypeIds
            self.reason = reason
        }
    }
}
