import ConciergeCore
import ConciergeProviders
import Foundation
import Testing

/// Weatherbit's hourly forecast and Open-Meteo, against recorded answers through the
/// transport seam.
@Suite struct CommuteWeatherAdapterTests {
    let amsterdam = Coordinate(latitude: 52.3676, longitude: 4.9041)

    @Test func weatherbitReadsTheHourOfTheDeparture() async throws {
        // The recorded forecast starts at 2026-09-01T06:00Z; it is 05:30Z now.
        let clock = ManualTimeSource(Date(timeIntervalSince1970: 1_788_240_600))
        let transport = try RecordingTransport(status: 200, fixture: "commute_weatherbit_hourly_200")
        let weather = WeatherbitForecast(key: "EXAMPLE_KEY", clock: clock, transport: transport)
        let storm = try #require(
            try await weather.conditions(at: amsterdam, time: Date(timeIntervalSince1970: 1_788_247_800)))
        #expect(storm.summary == "Thunderstorm with heavy rain")
        #expect(
            storm.precipitationMm == 4.9 && storm.snowCm == 0 && storm.temperatureC == 14.6 && storm.visibilityKm == 3.1
        )
        #expect(
            try await transport.onlyRequest.url
                == "https://api.weatherbit.io/v2.0/forecast/hourly?lat=52.3676&lon=4.9041&hours=3&key=EXAMPLE_KEY")
        // Beyond the answer's hours: nothing known.
        #expect(try await weather.conditions(at: amsterdam, time: Date(timeIntervalSince1970: 1_788_300_000)) == nil)
    }

    @Test func weatherbitErrorsAreFailuresAndTheHorizonIsRespected() async throws {
        let clock = ManualTimeSource(Date(timeIntervalSince1970: 1_788_240_600))
        for (status, fixture) in [(403, "commute_weatherbit_invalid_key_403"), (429, "commute_weatherbit_429")] {
            let transport = try RecordingTransport(status: status, fixture: fixture)
            await #expect(throws: ConciergeError.self) {
                try await WeatherbitForecast(key: "bad", clock: clock, transport: transport)
                    .conditions(at: amsterdam, time: clock.now.addingTimeInterval(3600))
            }
        }
        let unused = RecordingTransport(status: 500)
        let farAway = try await WeatherbitForecast(key: "k", clock: clock, transport: unused)
            .conditions(at: amsterdam, time: clock.now.addingTimeInterval(30 * 86400))
        #expect(farAway == nil)
        #expect(await unused.requests.isEmpty)
    }

    @Test func openMeteoShiftsLocalTimesByTheOffsetAndReadsUnits() async throws {
        // 2026-09-01T01:00 Amsterdam (UTC+2) is 2026-08-31T23:00Z.
        let clock = ManualTimeSource(Date(timeIntervalSince1970: 1_788_213_600))
        let transport = try RecordingTransport(status: 200, fixture: "commute_openmeteo_hourly_200")
        let weather = OpenMeteoForecast(clock: clock, transport: transport)
        let rain = try #require(
            try await weather.conditions(at: amsterdam, time: Date(timeIntervalSince1970: 1_788_219_000)))
        #expect(rain.summary == "Rain" && rain.precipitationMm == 0.4 && rain.temperatureC == 13.8)
        #expect(rain.visibilityKm == nil, "a null value is not known")
        let url = try await transport.onlyRequest.url
        #expect(
            url == "https://api.open-meteo.com/v1/forecast?latitude=52.3676&longitude=4.9041"
                + "&hourly=temperature_2m,precipitation,snowfall,visibility,weather_code&forecast_days=2")
        let cloudy = try #require(
            try await weather.conditions(at: amsterdam, time: Date(timeIntervalSince1970: 1_788_213_600)))
        #expect(cloudy.summary == "Cloudy" && cloudy.visibilityKm == 24.14)
    }

    @Test func openMeteoErrorsAreFailures() async throws {
        let clock = ManualTimeSource(Date(timeIntervalSince1970: 1_788_213_600))
        let transport = try RecordingTransport(status: 400, fixture: "commute_openmeteo_400")
        await #expect(throws: ConciergeError.self) {
            try await OpenMeteoForecast(clock: clock, transport: transport).conditions(at: amsterdam, time: clock.now)
        }
    }
}
