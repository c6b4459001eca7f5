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
        func fail(_ message: String) -> ConciergeError {
            ConciergeError(.invalidInput, code: "invalid_hotel", message: message)
        }
        guard TimeZone(identifier: timeZone) != nil else { throw fail("timeZone '\(timeZone)' is not an IANA zone") }
        guard currency.count == 3 else { throw fail("currency must be a three-letter code") }
        guard (0...100).contains(vatPercent), cityTaxCentsPerPersonNight >= 0 else {
            throw fail("vatPercent must be 0–100 and cityTaxCentsPerPersonNight 0 or more")
        }
        guard (0...23).contains(checkInHour), (0...23).contains(checkOutHour) else {
            throw fail("checkInHour and checkOutHour must be 0–23")
        }
        guard (1...365).contains(maxNights), (1...1000).contains(maxDaysAhead), (1...50).contains(maxGuests) else {
            throw fail("maxNights must be 1–365, maxDaysAhead 1–1000, maxGuests 1–50")
        }
        guard !roomTypes.isEmpty, Set(roomTypes.map(\.id)).count == roomTypes.count else {
            throw fail("roomTypes must be non-empty with distinct ids")
        }
        for type in roomTypes {
            guard type.id > 0, type.rooms >= 0, type.capacity >= 1, type.baseRateCents > 0, type.minimumStay >= 1 else {
                throw fail("room type \(type.id): id > 0, rooms ≥ 0, capacity ≥ 1, baseRateCents > 0, minimumStay ≥ 1")
            }
            // Prepayment through the payment providers is not built yet; a file asking for it
            // must not silently take reservations as pay-at-hotel.
            guard type.paymentPolicy == .payAtHotel else {
                throw fail("room type \(type.id): paymentPolicy 'prepay' is not available yet; use pay_at_hotel")
            }
        }
        for season in seasons where StayNight(season.from) == nil || StayNight(season.to) == nil {
            throw fail("season '\(season.name)': from and to are YYYY-MM-DD")
        }
        for closure in closures where StayNight(closure.from) == nil || StayNight(closure.to) == nil {
            throw fail("closure: from and to are YYYY-MM-DD")
        }
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
        public var from: String
        public var to: String
        public var roomTypeIds: [Int64]?
        public var reason: String?

        public init(from: String, to: String, roomTypeIds: [Int64]? = nil, reason: String? = nil) {
            self.from = from
            self.to = to
            self.roomTypeIds = roomTypeIds
            self.reason = reason
        }
    }
}
