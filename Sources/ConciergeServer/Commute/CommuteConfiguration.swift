import ConciergeCore
import ConciergeProviders
import Foundation

/// The commute settings: which router and weather service the planner asks, and which days
/// are holidays. Read from the process environment when the module mounts; tests replace the
/// providers through `CommuteConfiguration.$override`.
struct CommuteConfiguration: Sendable {
    enum Routes: String, Sendable {
        case auto
        case estimator
        case google
        case mapbox
    }

    enum Weather: String, Sendable {
        case none
        case openMeteo = "open-meteo"
        case weatherbit
    }

    var routes: Routes = .auto
    var mapboxToken: String?
    var weather: Weather = .none
    var weatherbitKey: String?
    var holidays = TripCalendar()

    /// Providers a test puts in place of the configured ones.
    struct Override: Sendable {
        var travel: (any TravelTimeProvider)?
        var weather: (any WeatherProvider)?
        var holidays: TripCalendar?
    }

    @TaskLocal static var override: Override?

    init() {}

    init(environment: [String: String]) throws(ConfigurationError) {
        func value(_ name: String) -> String? {
            guard let text = environment[name]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
            return text
        }
        if let text = value("CONCIERGE_COMMUTE_ROUTES") {
            guard let routes = Routes(rawValue: text.lowercased()) else {
                throw ConfigurationError(
                    "CONCIERGE_COMMUTE_ROUTES", "'\(text)' is not auto, estimator, google or mapbox")
            }
            self.routes = routes
        }
        mapboxToken = value("MAPBOX_ACCESS_TOKEN")
        if routes == .mapbox && mapboxToken == nil {
            throw ConfigurationError("MAPBOX_ACCESS_TOKEN", "is required with CONCIERGE_COMMUTE_ROUTES=mapbox")
        }
        if let text = value("CONCIERGE_COMMUTE_WEATHER") {
            guard let weather = Weather(rawValue: text.lowercased()) else {
                throw ConfigurationError("CONCIERGE_COMMUTE_WEATHER", "'\(text)' is not none, open-meteo or weatherbit")
            }
            self.weather = weather
        }
        weatherbitKey = value("WEATHERBIT_API_KEY")
        if weather == .weatherbit && weatherbitKey == nil {
            throw ConfigurationError("WEATHERBIT_API_KEY", "is required with CONCIERGE_COMMUTE_WEATHER=weatherbit")
        }
        if let text = value("CONCIERGE_COMMUTE_HOLIDAYS") {
            holidays = try Self.holidays(text)
        }
    }

    /// `swiss`, `none`, and/or extra `YYYY-MM-DD` days, comma-separated.
    static func holidays(_ text: String) throws(ConfigurationError) -> TripCalendar {
        var swiss = false
        var days: Set<LocalDate> = []
        for entry in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) {
            switch entry {
            case "swiss": swiss = true
            case "none": continue
            default:
                guard let day = TripCalendar.parseDay(entry) else {
                    throw ConfigurationError(
                        "CONCIERGE_COMMUTE_HOLIDAYS", "'\(entry)' is not swiss, none or a day YYYY-MM-DD")
                }
                days.insert(day)
            }
        }
        let extra = days
        let useSwiss = swiss
        return TripCalendar { day in extra.contains(day) || (useSwiss && SwissHolidays.holiday(on: day) != nil) }
    }

    func travelProvider(googleKey: String?, clock: any TimeSource) -> (any TravelTimeProvider)? {
        if let override = Self.override, override.travel != nil { return override.travel }
        switch routes {
        case .estimator: return nil
        case .google: return googleKey.map { GoogleRoutesTravelTimes(key: GoogleMapsKey($0), clock: clock) }
        case .mapbox: return mapboxToken.map { MapboxDirectionsTravelTimes(accessToken: $0, clock: clock) }
        case .auto:
            if let googleKey { return GoogleRoutesTravelTimes(key: GoogleMapsKey(googleKey), clock: clock) }
            return mapboxToken.map { MapboxDirectionsTravelTimes(accessToken: $0, clock: clock) }
        }
    }

    func weatherProvider(clock: any TimeSource) -> (any WeatherProvider)? {
        if let override = Self.override, override.weather != nil { return override.weather }
        switch weather {
        case .none: return nil
        case .openMeteo: return OpenMeteoForecast(clock: clock)
        case .weatherbit: return weatherbitKey.map { WeatherbitForecast(key: $0, clock: clock) }
        }
    }

    var calendar: TripCalendar { Self.override?.holidays ?? holidays }
}

extension ConfigurationVariable {
    /// The settings only commute reads.
    static let commute: [ConfigurationVariable] = [
        .init(
            name: "CONCIERGE_COMMUTE_ROUTES", defaultValue: "auto",
            summary:
                "Commute travel times: google, mapbox, estimator (offline, time-of-day profile) or auto (Google with GOOGLE_MAPS_API_KEY, else Mapbox with MAPBOX_ACCESS_TOKEN, else the estimator)."
        ),
        .init(
            name: "MAPBOX_ACCESS_TOKEN", defaultValue: "(unset)",
            summary: "Mapbox token for Directions driving-traffic with depart_at."),
        .init(
            name: "CONCIERGE_COMMUTE_WEATHER", defaultValue: "none",
            summary: "Weather for leave times: none (unknown, no penalty), open-meteo (no key) or weatherbit."),
        .init(name: "WEATHERBIT_API_KEY", defaultValue: "(unset)", summary: "Weatherbit key for hourly forecasts."),
        .init(
            name: "CONCIERGE_COMMUTE_HOLIDAYS", defaultValue: "swiss",
            summary: "Days without commute notices: swiss, none, and/or extra days YYYY-MM-DD, comma-separated."),
    ]
}
