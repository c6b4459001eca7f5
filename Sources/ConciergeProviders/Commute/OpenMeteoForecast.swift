public import ConciergeCore
public import Foundation

/// Open-Meteo's hourly forecast (no key): `GET /v1/forecast?latitude&longitude&hourly=…`.
/// Times come as local `YYYY-MM-DDTHH:MM` without offset, shifted by `utc_offset_seconds`;
/// `precipitation` is mm, `snowfall` cm, `visibility` m; a `null` value is "not known".
public struct OpenMeteoForecast: WeatherProvider {
    public let name = "open-meteo"
    public static let defaultBaseURL = "https://api.open-meteo.com"
    static let variables = "temperature_2m,precipitation,snowfall,visibility,weather_code"

    private let transport: any ProviderHTTPTransport
    private let baseURL: String
    private let clock: any TimeSource
    private let timeout: Duration

    public init(
        clock: any TimeSource, transport: any ProviderHTTPTransport = AsyncHTTPClientTransport(),
        baseURL: String = OpenMeteoForecast.defaultBaseURL, timeout: Duration = .seconds(2)
    ) {
        self.transport = transport
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.clock = clock
        self.timeout = timeout
    }

    public func conditions(at place: Coordinate, time: Date) async throws -> WeatherConditions? {
        let days = Int((time.timeIntervalSince(clock.now) / 86400).rounded(.down)) + 2
        guard (1...16).contains(days), time > clock.now.addingTimeInterval(-3600) else { return nil }
        let url =
            "\(baseURL)/v1/forecast?latitude=\(place.latitude)&longitude=\(place.longitude)"
            + "&hourly=\(Self.variables)&forecast_days=\(days)"
        let response = try await transport.send(
            ProviderHTTPRequest(method: "GET", url: url, headers: [("Accept", "application/json")]), timeout: timeout)
        guard (200...299).contains(response.status) else {
            let reason = (try? JSONDecoder().decode(ErrorBody.self, from: response.body))?.reason ?? ""
            throw CommuteProviderFailure.status(name, response.status, reason)
        }
        guard let answer = try? JSONDecoder().decode(Answer.self, from: response.body) else {
            throw CommuteProviderFailure.unreadable(name)
        }
        let offset = TimeInterval(answer.utc_offset_seconds ?? 0)
        let seconds = time.timeIntervalSince1970
        guard
            let index = answer.hourly.time.firstIndex(where: { text in
                guard let local = Self.localTime(text) else { return false }
                let start = local - offset
                return start <= seconds && seconds < start + 3600
            })
        else { return nil }
        func value(_ list: [Double?]?) -> Double? {
            guard let list, index < list.count else { return nil }
            return list[index]
        }
        let code = value(answer.hourly.weather_code).map { Int($0) }
        return WeatherConditions(
            summary: code.map(Self.summary) ?? "", precipitationMm: max(0, value(answer.hourly.precipitation) ?? 0),
            snowCm: max(0, value(answer.hourly.snowfall) ?? 0), temperatureC: value(answer.hourly.temperature_2m) ?? 10,
            visibilityKm: value(answer.hourly.visibility).map { $0 / 1000 })
    }

    /// `2026-09-01T06:00` read as if it were UTC (the caller applies the offset).
    static func localTime(_ text: String) -> TimeInterval? {
        (try? Date.ISO8601FormatStyle(timeZone: .gmt).year().month().day().time(includingFractionalSeconds: false)
            .timeSeparator(.colon).dateTimeSeparator(.standard).parse(text + ":00"))?.timeIntervalSince1970
    }

    /// WMO weather interpretation codes, by group.
    static func summary(_ code: Int) -> String {
        switch code {
        case 0: "Clear sky"
        case 1...3: "Cloudy"
        case 45, 48: "Fog"
        case 51...57: "Drizzle"
        case 61...67: "Rain"
        case 71...77: "Snow"
        case 80...82: "Rain showers"
        case 85, 86: "Snow showers"
        case 95...99: "Thunderstorm"
        default: "Code \(code)"
        }
    }

    private struct ErrorBody: Decodable {
        let reason: String
    }

    // swift-format-ignore: AlwaysUseLowerCamelCase
    private struct Answer: Decodable {
        struct Hourly: Decodable {
            let time: [String]
            let temperature_2m: [Double?]?
            let precipitation: [Double?]?
            let snowfall: [Double?]?
            let visibility: [Double?]?
            let weather_code: [Double?]?
        }

        let utc_offset_seconds: Int?
        let hourly: Hourly
    }
}
