import ConciergeCore
import ConciergeProviders
import Foundation

/// The commute settings: which router and weather service the planner asks, and which days
/// are holidays, and Apple Push. Read from the server's variables (the environment with the
/// `serve` flags applied) when the module mounts; tests replace the providers through
/// `CommuteConfiguration.$override`.
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
    /// Apple Push with a `.p8` key; nil (none of the APNS_ variables set): push goes to the dev
    /// outbox.
    var apns: APNs?

    /// The token-based Apple Push settings.
    struct APNs: Sendable, Equatable {
        var keyPEM: String
        var keyID: String
        var teamID: String
        var topic: String
    }

    /// Providers a test puts in place of the configured ones.
    struct Override: Sendable {
        var travel: (any TravelTimeProvider)?
        var weather: (any WeatherProvider)?
        var holidays: TripCalendar?
        /// Where APNs requests go instead of Apple.
        var apnsTransport: (any ProviderHTTPTransport)?
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
        apns = try Self.apns(value)
    }

    /// All four APNS_ variables, or none. The key file is read here; whether it holds a P-256
    /// key is checked when the module mounts.
    static func apns(_ value: (String) -> String?) throws(ConfigurationError) -> APNs? {
        let names = ["APNS_KEY_FILE", "APNS_KEY_ID", "APNS_TEAM_ID", "APNS_TOPIC"]
        let given = names.compactMap { name in value(name).map { (name, $0) } }
        guard !given.isEmpty else { return nil }
        if let missing = names.first(where: { value($0) == nil }) {
            throw ConfigurationError(
                missing, "is required with \(given[0].0) (Apple Push needs all four APNS_ settings)")
        }
        let path = value("APNS_KEY_FILE") ?? ""
        let keyID = value("APNS_KEY_ID") ?? ""
        let teamID = value("APNS_TEAM_ID") ?? ""
        for (name, id) in [("APNS_KEY_ID", keyID), ("APNS_TEAM_ID", teamID)]
        where !(id.count == 10 && id.allSatisfy { $0.isASCII && ($0.isUppercase || $0.isNumber) }) {
            throw ConfigurationError(name, "'\(id)' is not a 10-character Apple id such as ABC123DEFG")
        }
        guard let pem = try? String(contentsOfFile: path, encoding: .utf8), pem.contains("-----BEGIN PRIVATE KEY-----")
        else {
            throw ConfigurationError(
                "APNS_KEY_FILE", "'\(path)' is not a readable .p8 key file (PEM, BEGIN PRIVATE KEY)")
        }
        return APNs(keyPEM: pem, keyID: keyID, teamID: teamID, topic: value("APNS_TOPIC") ?? "")
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

    /// The APNs sender when Apple Push is configured; a key that is no P-256 key stops the start.
    func pushSender(devices: any PushDeviceDirectory, clock: any TimeSource) async throws -> (any PushSender)? {
        guard let apns else { return nil }
        let token: APNsProviderToken
        do {
            token = try await APNsProviderToken(
                privateKeyPEM: apns.keyPEM, keyID: apns.keyID, teamID: apns.teamID, clock: clock)
        } catch {
            throw ConfigurationError("APNS_KEY_FILE", "does not hold an ES256 (P-256) private key: \(error)")
        }
        if let transport = Self.override?.apnsTransport {
            return APNsPushSender(token: token, topic: apns.topic, devices: devices, clock: clock, transport: transport)
        }
        return APNsPushSender(token: token, topic: apns.topic, devices: devices, clock: clock)
    }
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
        .init(
            name: "APNS_KEY_FILE", defaultValue: "(unset)",
            summary:
                "Apple Push .p8 key file (token-based auth); with APNS_KEY_ID, APNS_TEAM_ID and APNS_TOPIC, commute notices go to APNs instead of the dev outbox."
        ),
        .init(
            name: "APNS_KEY_ID", defaultValue: "(unset)", summary: "The .p8 key's 10-character Key ID (the JWT's kid)."),
        .init(
            name: "APNS_TEAM_ID", defaultValue: "(unset)", summary: "The 10-character Apple Team ID (the JWT's iss)."),
        .init(
            name: "APNS_TOPIC", defaultValue: "(unset)",
            summary: "The app's bundle id (apns-topic); Live Activity pushes use <topic>.push-type.liveactivity."),
    ]
}
