import ConciergeCore
import ConciergeModels
import Foundation

/// The reasons of a leave-time recommendation (the same one `GET
/// /commute/trips/{id}/recommendation` answers) as sentences in the visitor's language: the
/// travel time, the traffic at that hour, the weather, the person's own pace, the margin and
/// buffer, and the holidays skipped before the occurrence.
struct CommuteLeaveReasons {
    let strings: WebStrings
    let language: WebLanguage

    /// `rushHourFactor`: the time-of-day profile at the departure (the heuristic's traffic).
    func sentences(
        _ recommendation: LeaveTimeRecommendation, rushHourFactor: Double, skipped: [(day: LocalDate, name: String?)]
    ) -> [String] {
        var sentences = [
            text(
                "reason_travel",
                ["minutes": "\(recommendation.travelMinutes)", "km": km(recommendation.route.distanceKm)])
        ]
        let factors = recommendation.factors
        if let traffic = factors.first(where: { $0.code == "traffic" }) {
            let usual = Int(recommendation.route.typicalDurationMinutes.rounded())
            sentences.append(
                traffic.minutes > 0
                    ? text("reason_traffic_slower", ["minutes": "\(traffic.minutes)", "usual": "\(usual)"])
                    : text("reason_traffic_faster", ["minutes": "\(-traffic.minutes)"]))
        } else if recommendation.source == "heuristic", rushHourFactor > 1.01 {
            // The estimator's time already carries the profile: say how much of it is traffic.
            let travel = recommendation.route.durationMinutes
            let free = travel / rushHourFactor
            sentences.append(
                text(
                    "reason_traffic_profile",
                    [
                        "minutes": "\(Int((travel - free).rounded()))", "free": "\(Int(free.rounded()))",
                        "percent": "\(Int(((rushHourFactor - 1) * 100).rounded()))",
                    ]))
        } else {
            sentences.append(text("reason_traffic_usual"))
        }
        sentences.append(text(recommendation.source == "heuristic" ? "reason_source_heuristic" : "reason_source_live"))
        let weather = factors.filter { ["rain", "snow", "ice", "fog"].contains($0.code) }
        if recommendation.weather == nil {
            sentences.append(text("reason_weather_unknown"))
        } else if weather.isEmpty {
            sentences.append(text("reason_weather_none", ["summary": recommendation.weather?.summary ?? ""]))
        }
        for penalty in weather {
            sentences.append(
                text("reason_weather", ["condition": condition(penalty.label), "minutes": "\(penalty.minutes)"]))
        }
        if let personal = factors.first(where: { $0.code == "personal" }) {
            sentences.append(
                text(
                    personal.minutes > 0 ? "reason_personal_longer" : "reason_personal_shorter",
                    ["minutes": "\(abs(personal.minutes))"]))
        } else {
            sentences.append(text("reason_personal_none"))
        }
        let percent = "\(Int((recommendation.onTimeProbability * 100).rounded()))"
        if let margin = factors.first(where: { $0.code == "margin" }) {
            sentences.append(text("reason_margin", ["minutes": "\(margin.minutes)", "percent": percent]))
        }
        if recommendation.bufferMinutes > 0 {
            sentences.append(text("reason_buffer", ["minutes": "\(recommendation.bufferMinutes)"]))
        }
        sentences.append(text("reason_chance", ["percent": percent]))
        for holiday in skipped {
            let day = WebFormat.day(holiday.day.description, language)
            sentences.append(
                holiday.name.map { text("reason_holiday_named", ["day": day, "name": holidayName($0)]) }
                    ?? text("reason_holiday", ["day": day]))
        }
        return sentences
    }

    /// The words of `key` with each `{name}` replaced.
    func text(_ key: String, _ values: [String: String] = [:]) -> String {
        strings.text("commute", key, language, values)
    }

    private func km(_ value: Double) -> String {
        let formatter = NumberFormatter()
        formatter.locale = language.locale
        formatter.maximumFractionDigits = 1
        formatter.minimumFractionDigits = 1
        return formatter.string(from: NSNumber(value: value)) ?? String(value)
    }

    /// The weather table's English label (`Light rain`) in the visitor's language.
    private func condition(_ label: String) -> String {
        translated("weather_" + Self.key(label)) ?? label
    }

    /// A Swiss holiday's English name (`Whit Monday`) in the visitor's language.
    private func holidayName(_ name: String) -> String {
        translated("holiday_" + Self.key(name)) ?? name
    }

    private func translated(_ key: String) -> String? {
        let text = strings.text("commute", key, language)
        return text == "commute.\(key)" ? nil : text
    }

    /// `St. Stephen's Day` → `st_stephen_s_day`.
    static func key(_ text: String) -> String {
        text.lowercased().map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined()
            .split(separator: "_").joined(separator: "_")
    }
}
