import Foundation

/// The price of one room type for one range and party: each night's rate from the base rate,
/// the weekend rule and the season, VAT contained in the rates, city tax per person per night
/// on top.
public struct StayQuote: Sendable, Equatable {
    public let nightlyCents: [Int]
    public let accommodationCents: Int
    public let cityTaxCents: Int
    public let vatIncludedCents: Int

    public var nights: Int { nightlyCents.count }
    public var totalCents: Int { accommodationCents + cityTaxCents }
    /// The seed's `price` of a room: the average nightly rate, rounded to the cent.
    public var averageNightlyCents: Int {
        nights == 0 ? 0 : Int((Double(accommodationCents) / Double(nights)).rounded())
    }

    public init(roomType: HotelSettings.RoomType, range: StayRange, people: Int, hotel: HotelSettings) {
        // Each season's dates are read once, not once per night; one that does not read never applies.
        let seasons = hotel.seasons.compactMap { season -> (from: StayNight, to: StayNight, percent: Double)? in
            guard let from = StayNight(season.from), let to = StayNight(season.to) else { return nil }
            return (from, to, season.percent)
        }
        nightlyCents = range.nights.map { night in
            var percent = 0.0
            if hotel.weekend.weekdays.contains(night.weekday) { percent += hotel.weekend.percent }
            if let season = seasons.last(where: { $0.from <= night && night <= $0.to }) {
                percent += season.percent
            }
            // Rates are kept to whole francs' cents; a rule never makes a night free or negative.
            return max(1, Int((Double(roomType.baseRateCents) * (100 + percent) / 100).rounded()))
        }
        accommodationCents = nightlyCents.reduce(0, +)
        cityTaxCents = hotel.cityTaxCentsPerPersonNight * people * range.nights.count
        vatIncludedCents = Int((Double(accommodationCents) * hotel.vatPercent / (100 + hotel.vatPercent)).rounded())
    }
}

extension HotelSettings {
    /// Why a room type cannot be sold for a range, or nil when it can (inventory aside).
    public func refusal(of roomType: RoomType, range: StayRange) -> String? {
        if range.nights.count < roomType.minimumStay {
            return "The \(roomType.type) room needs a stay of at least \(roomType.minimumStay) nights."
        }
        for closure in closures where closure.roomTypeIds.map({ $0.contains(roomType.id) }) ?? true {
            guard let from = StayNight(closure.from), let to = StayNight(closure.to) else { continue }
            if range.nights.contains(where: { from <= $0 && $0 <= to }) {
                return
                    "The \(roomType.type) room is closed from \(from) to \(to)\(closure.reason.map { " (\($0))" } ?? "")."
            }
        }
        return nil
    }

    /// Money as the seed's `Double` (two decimals).
    public static func amount(_ cents: Int) -> Double { Double(cents) / 100 }

    public func formatted(_ cents: Int) -> String {
        formatted(cents, currency: currency)
    }

    /// An amount in `currency` (a reservation keeps the currency it was made in).
    public func formatted(_ cents: Int, currency: String) -> String {
        "\(currency) \(cents / 100).\(String(format: "%02d", abs(cents % 100)))"
    }
}
