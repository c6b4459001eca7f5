public import Foundation

/// How much slower than free flow driving is at a local time of day: weekday rush hours
/// (morning around 07:45, evening around 17:15) and a mild weekend midday. The offline
/// estimator multiplies its free-flow time by this, and it is the heuristic's rush-hour factor.
public enum TrafficProfile {
    /// Extra time at the centre of each weekday peak, as a share of free flow.
    public static let morningPeak = (centreHour: 7.75, width: 0.9, extra: 0.45)
    public static let eveningPeak = (centreHour: 17.25, width: 1.1, extra: 0.40)
    /// Daytime traffic on weekdays between the peaks.
    public static let weekdayDaytimeExtra = 0.08
    public static let weekendMidday = (centreHour: 13.0, width: 3.0, extra: 0.12)

    /// The multiplier (≥ 1) for a departure at `date` in `timeZone`.
    public static func factor(at date: Date, timeZone: TimeZone) -> Double {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.weekday, .hour, .minute], from: date)
        let hour = Double(parts.hour ?? 0) + Double(parts.minute ?? 0) / 60
        let weekend = parts.weekday == 1 || parts.weekday == 7
        return factor(hour: hour, weekend: weekend)
    }

    public static func factor(hour: Double, weekend: Bool) -> Double {
        func bump(_ centre: Double, _ width: Double, _ extra: Double) -> Double {
            extra * exp(-pow((hour - centre) / width, 2))
        }
        if weekend { return 1 + bump(weekendMidday.centreHour, weekendMidday.width, weekendMidday.extra) }
        let daytime = (7.0...19.0).contains(hour) ? weekdayDaytimeExtra : 0
        return 1 + daytime + bump(morningPeak.centreHour, morningPeak.width, morningPeak.extra)
            + bump(eveningPeak.centreHour, eveningPeak.width, eveningPeak.extra)
    }
}
