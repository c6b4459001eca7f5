import ConciergeCore
import ConciergeModels
import Foundation

/// The trip form as the person filled it in, kept as typed so a page with errors shows their
/// input again. Turned into the API's `CommuteTripInput`, so the service applies the same rules
/// as `POST`/`PATCH /commute/trips`; only what the API's JSON decoder would refuse (a number that
/// is not one, a place not chosen) is checked here.
struct CommuteTripFormValues {
    var name = ""
    var queries: [CommutePlaceEnd: String] = [:]
    /// The chosen radio of each end: a place id, `geo:<lat>,<lon>`, or `keep` (the trip's place).
    var choices: [CommutePlaceEnd: String] = [:]
    var arrivalTime = ""
    var days = TripRules.defaultDays
    var timeZone = "Europe/Zurich"
    var buffer = "5"
    var onTimeTarget = "90"
    var notifyEnabled = true
    var lead = "10"
    var channels = ["push"]

    init() {}

    /// The form of an existing trip: its places are kept unless the person chooses others.
    init(trip: CommuteTrip) {
        name = trip.name
        choices = [.origin: CommutePlaceChoice.keep, .destination: CommutePlaceChoice.keep]
        arrivalTime = trip.arrivalTime
        days = trip.repeatDays
        timeZone = trip.timeZone
        buffer = String(trip.bufferMinutes)
        onTimeTarget = String(Int((trip.onTimeTarget * 100).rounded()))
        notifyEnabled = trip.notify.enabled
        lead = String(trip.notify.leadMinutes)
        channels = trip.notify.channels
    }

    init(form: WebForm) {
        name = form["name"] ?? ""
        for end in CommutePlaceEnd.allCases {
            queries[end] = String((form["\(end.rawValue)_query"] ?? "").prefix(200))
            if let choice = form[end.rawValue], !choice.isEmpty { choices[end] = choice }
        }
        arrivalTime = form["arrival_time"] ?? ""
        days = form.all("days")
        timeZone = form["time_zone"] ?? ""
        buffer = form["buffer_minutes"] ?? ""
        onTimeTarget = form["on_time_target"] ?? ""
        notifyEnabled = form["notify_enabled"] == "on"
        lead = form["lead_minutes"] ?? ""
        channels = form.all("channels")
    }

    /// The API body, or the fields the person must correct first (field → words key).
    func input(editing: Bool) -> (input: CommuteTripInput, errors: [String: String]) {
        var errors: [String: String] = [:]
        var input = CommuteTripInput(
            name: name, arrivalTime: arrivalTime, repeatDays: days, timeZone: timeZone,
            notify: CommuteNotifyInput(enabled: notifyEnabled, channels: channels))
        for end in CommutePlaceEnd.allCases {
            switch CommutePlaceChoice.place(from: choices[end]) {
            case .keep where editing: break
            case .place(let place): end == .origin ? (input.origin = place) : (input.destination = place)
            case .keep, .none:
                errors[end.rawValue] = (queries[end] ?? "").isEmpty ? "error_place_missing" : "error_place_choose"
            }
        }
        if let minutes = Int(buffer) {
            input.bufferMinutes = minutes
        } else {
            errors["buffer_minutes"] = "error_buffer"
        }
        if let percent = Double(onTimeTarget.replacingOccurrences(of: ",", with: ".")), percent.isFinite {
            input.onTimeTarget = percent / 100
        } else {
            errors["on_time_target"] = "error_on_time_target"
        }
        if let minutes = Int(lead) {
            input.notify?.leadMinutes = minutes
        } else {
            errors["lead_minutes"] = "error_lead"
        }
        return (input, errors)
    }
}

/// Either end of a trip, as the form names its fields.
enum CommutePlaceEnd: String, CaseIterable {
    case origin, destination
}
