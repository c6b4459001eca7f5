public import ConciergeCore
public import Foundation

/// Weatherbit's hourly forecast (the seed's weather): `GET /v2.0/forecast/hourly?lat&lon&hours&key`.
/// `precip` is read as the hour's millimetres and `snow` (mm of snowfall) as tenths of a
/// centimetre; `vis` is in km; `weather.code` arrives as a number or, in older answers, a string.
public struct WeatherbitForecast: WeatherProvider {
    public let name = "weatherbit"
    public static let defaultBaseURL = "https://api.weatherbit.io"

    private let key: String
    private let transport: any ProviderHTTPTransport
    private let baseURL: String
    private let clock: any TimeSource
    private let timeout: Duration

    public init(
        key: String, clock: any TimeSource, transport: any ProviderHTTPTransport = AsyncHTTPClientTransport(),
        baseURL: String = WeatherbitForecast.defaultBaseURL, timeout: Duration = .seconds(2)
    ) {
        self.key = key.trimmingCharacters(in: .whitespacesAndNewlines)
        self.transport = transport
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.clock = clock
        self.timeout = timeout
    }

    public func conditions(at place: Coordinate, time: Date) async throws -> WeatherConditions? {
        // The forecast covers 1–240 hours from now; outside that there is nothing to ask.
        let hours = Int((time.timeIntervalSince(clock.now) / 3600).rounded(.up)) + 1
        guard (1...240).contains(hours) else { return nil }
        let url =
            "\(baseURL)/v2.0/forecast/hourly?lat=\(place.latitude)&lon=\(place.longitude)&hours=\(hours)&key=\(key)"
        let response = try await transport.send(
            ProviderHTTPRequest(method: "GET", url: url, headers: [("Accept", "application/json")]), timeout: timeout)
        guard (200...299).contains(response.status) else {
            let error = (try? JSONDecoder().decode(ErrorBody.self, from: response.body))?.error ?? ""
            throw CommuteProviderFailure.status(name, response.status, error)
        }
        // An empty or unreadable 2xx is "no data", not a failure.
        guard let answer = try? JSONDecoder().decode(Answer.self, from: response.body) else { return nil }
        let seconds = time.timeIntervalSince1970
        guard let hour = answer.data.first(where: { Double($0.ts) <= seconds && seconds < Double($0.ts) + 3600 })
        else { return nil }
        return WeatherConditions(
            summary: hour.weather?.description ?? "", precipitationMm: max(0, hour.precip ?? 0),
            snowCm: max(0, hour.snow ?? 0) / 10, temperatureC: hour.temp ?? 10, visibilityKm: hour.vis)
    }

    private struct ErrorBody: Decodable {
        let error: String
    }

    private struct Answer: Decodable {
        struct Hour: Decodable {
            struct Weather: Decodable {
                let description: String?
            }

            let ts: Int
            let precip: Double?
            let snow: Double?
            let temp: Double?
            let vis: Double?
            let weather: Weather?
        }

        let data: [Hour]
    }
}
