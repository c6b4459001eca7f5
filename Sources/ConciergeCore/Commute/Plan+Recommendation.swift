public import ConciergeModels
import Foundation

extension LeavePlanner.Plan {
    /// The wire form, with the reasons spelled out as factors.
    public func recommendation(tripID: String?) -> LeaveTimeRecommendation {
        let typical = Double(travel.typicalDurationSeconds) / 60
        var factors: [RecommendationFactor] = []
        let delay = Int((Double(travel.durationSeconds - travel.typicalDurationSeconds) / 60).rounded())
        if delay != 0 {
            factors.append(
                RecommendationFactor(
                    code: "traffic", minutes: delay,
                    label: delay > 0 ? "\(delay) min of traffic" : "\(-delay) min faster than usual"))
        }
        for penalty in weatherPenalties {
            factors.append(RecommendationFactor(code: penalty.code, minutes: penalty.minutes, label: penalty.label))
        }
        let bias = Int(self.bias.minutes.rounded())
        if bias != 0 {
            factors.append(
                RecommendationFactor(
                    code: "personal", minutes: bias,
                    label: "Your trips usually take \(abs(bias)) min \(bias > 0 ? "longer" : "less")"))
        }
        if marginMinutes > 0 {
            factors.append(
                RecommendationFactor(code: "margin", minutes: marginMinutes, label: "Margin for your on-time target"))
        }
        if bufferMinutes > 0 {
            factors.append(RecommendationFactor(code: "buffer", minutes: bufferMinutes, label: "Your buffer"))
        }
        return LeaveTimeRecommendation(
            tripId: tripID, arriveBy: WireDate.string(from: arriveBy), leaveAt: WireDate.string(from: leaveAt),
            travelMinutes: travelMinutes, bufferMinutes: bufferMinutes, weatherMinutes: weatherMinutes,
            personalMinutes: personalMinutes, onTimeProbability: onTimeProbability, confidence: confidence,
            source: heuristic ? "heuristic" : "traffic",
            route: CommuteRoute(
                distanceKm: (Double(travel.distanceMeters) / 100).rounded() / 10,
                durationMinutes: (Double(travel.durationSeconds) / 6).rounded() / 10,
                typicalDurationMinutes: (typical * 10).rounded() / 10, provider: travel.provider),
            weather: weather.map {
                CommuteWeather(
                    summary: $0.summary, precipitationMm: $0.precipitationMm, snowCm: $0.snowCm,
                    temperatureC: $0.temperatureC, visibilityKm: $0.visibilityKm)
            },
            factors: factors, computedAt: WireDate.string(from: computedAt),
            validUntil: WireDate.string(from: validUntil))
    }
}
