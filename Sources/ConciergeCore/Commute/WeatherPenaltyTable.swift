/// The documented weather rules (docs/api/commute.md): each row adds a share of the travel time,
/// at least some minutes. Of the precipitation rows (rain, snow, ice) the largest applies; fog
/// adds on top. The table is data so a deployment can read it, test it and change it.
public struct WeatherPenaltyTable: Sendable {
    public enum Condition: Sendable, Equatable {
        /// Rain (no snow) with at least this many mm in the hour, below `below`.
        case rain(atLeastMm: Double, belowMm: Double)
        /// Fresh snow with at least this many cm in the hour, below `below`.
        case snow(atLeastCm: Double, belowCm: Double)
        /// Precipitation at or below this temperature without snow: freezing rain, black ice.
        case ice(atOrBelowC: Double, atLeastMm: Double)
        /// Visibility below this many km.
        case fog(belowKm: Double)
    }

    public struct Row: Sendable, Equatable {
        public let code: String
        public let label: String
        public let condition: Condition
        public let percent: Double
        public let minimumMinutes: Int
    }

    public let rows: [Row]

    public static let standard = WeatherPenaltyTable(rows: [
        Row(
            code: "rain", label: "Light rain", condition: .rain(atLeastMm: 0.2, belowMm: 2.5), percent: 5,
            minimumMinutes: 1),
        Row(
            code: "rain", label: "Rain", condition: .rain(atLeastMm: 2.5, belowMm: 7.6), percent: 10,
            minimumMinutes: 2),
        Row(
            code: "rain", label: "Heavy rain", condition: .rain(atLeastMm: 7.6, belowMm: .infinity), percent: 20,
            minimumMinutes: 4),
        Row(
            code: "snow", label: "Light snow", condition: .snow(atLeastCm: 0.01, belowCm: 1), percent: 20,
            minimumMinutes: 4),
        Row(
            code: "snow", label: "Heavy snow", condition: .snow(atLeastCm: 1, belowCm: .infinity), percent: 40,
            minimumMinutes: 8),
        Row(
            code: "ice", label: "Freezing rain or ice", condition: .ice(atOrBelowC: 0.5, atLeastMm: 0.1),
            percent: 30, minimumMinutes: 5),
        Row(code: "fog", label: "Fog", condition: .fog(belowKm: 1), percent: 10, minimumMinutes: 2),
    ])

    public struct Penalty: Sendable, Equatable {
        public let code: String
        public let label: String
        public let minutes: Int
    }

    /// The penalties that apply to a trip of `travelMinutes` in `weather`.
    public func penalties(for weather: WeatherConditions, travelMinutes: Double) -> [Penalty] {
        func minutes(_ row: Row) -> Int {
            max(row.minimumMinutes, Int((travelMinutes * row.percent / 100).rounded(.up)))
        }
        let applying = rows.filter { applies($0.condition, to: weather) }
        let precipitation = applying.filter { $0.code != "fog" }.max { minutes($0) < minutes($1) }
        let fog = applying.first { $0.code == "fog" }
        return [precipitation, fog].compactMap { $0 }.map {
            Penalty(code: $0.code, label: $0.label, minutes: minutes($0))
        }
    }

    private func applies(_ condition: Condition, to weather: WeatherConditions) -> Bool {
        switch condition {
        case .rain(let low, let high):
            weather.snowCm <= 0 && weather.temperatureC > 0.5 && weather.precipitationMm >= low
                && weather.precipitationMm < high
        case .snow(let low, let high):
            weather.snowCm >= low && weather.snowCm < high
        case .ice(let temperature, let low):
            weather.snowCm <= 0 && weather.temperatureC <= temperature && weather.precipitationMm >= low
        case .fog(let below):
            (weather.visibilityKm ?? .infinity) < below
        }
    }
}
