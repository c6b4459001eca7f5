import ConciergeCore
import ConciergeModels
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The add and edit pages of a trip: the form with the person's input, each end's place
/// choices, and each correction as a sentence next to its field.
struct CommuteTripFormPage {
    let web: WebFrontEnd
    let places: any PlacesProvider

    /// Zones offered first; a trip's own zone is added when it is another.
    static let zones = [
        "Europe/Zurich", "Europe/Berlin", "Europe/Vienna", "Europe/Paris", "Europe/Rome", "Europe/Amsterdam",
        "Europe/London", "UTC",
    ]

    /// Where the form stands: the trip being edited (nil when adding) and what went wrong.
    struct State {
        var values: CommuteTripFormValues
        var trip: CommuteTrip?
        /// field → words key
        var errors: [String: String] = [:]
        /// A refusal that concerns no single field, in the service's words.
        var formError: String?
    }

    func render(_ state: State, visit: WebVisit, status: HTTPResponse.Status = .ok) async -> Response {
        let language = visit.language
        let words = { (key: String) in web.strings.text("commute", key, language) }
        var errors = state.errors
        var ends: [[String: Any]] = []
        for end in CommutePlaceEnd.allCases {
            let (options, searchFailed) = await self.options(for: end, state: state)
            if searchFailed { errors[end.rawValue] = errors[end.rawValue] ?? "error_place_search" }
            var data = Self.choices(end: end, options: options, chosen: state.values.choices[end])
            data["legend"] = words(end == .origin ? "origin_legend" : "destination_legend")
            data["query"] = state.values.queries[end] ?? ""
            if let current = current(end, of: state.trip) {
                data["current"] = [
                    "label": current.label, "checked": state.values.choices[end] == CommutePlaceChoice.keep,
                ]
            }
            if (state.values.queries[end] ?? "").isEmpty == false, options.isEmpty, !searchFailed {
                data["noResults"] = words("place_no_results").replacingOccurrences(
                    of: "{query}", with: state.values.queries[end] ?? "")
            }
            if let key = errors[end.rawValue] { data["error"] = words(key) }
            ends.append(data)
        }
        let field = { (name: String, value: String) -> [String: Any] in
            var data: [String: Any] = ["value": value]
            if let key = errors[name] { data["error"] = words(key) }
            return data
        }
        let values = state.values
        var data: [String: Any] = [
            "heading": words(state.trip == nil ? "new_title" : "edit_title"),
            "action": state.trip.map { "/commute/my-trips/\($0.id)/edit" } ?? "/commute/my-trips/new",
            "submit": words(state.trip == nil ? "add_submit" : "edit_submit"),
            "ends": ends, "name": field("name", values.name), "arrivalTime": field("arrival_time", values.arrivalTime),
            "buffer": field("buffer_minutes", values.buffer),
            "onTimeTarget": field("on_time_target", values.onTimeTarget),
            "lead": field("lead_minutes", values.lead), "notifyEnabled": values.notifyEnabled,
            "days": CommuteTrip.dayNames.map { day in
                ["value": day, "label": words("day_\(day)"), "checked": values.days.contains(day)] as [String: Any]
            },
            "channels": ["push", "email", "sms"].map { channel in
                ["value": channel, "label": words("channel_\(channel)"), "checked": values.channels.contains(channel)]
                    as [String: Any]
            },
            "zones":
                (Self.zones.contains(values.timeZone) || values.timeZone.isEmpty
                ? Self.zones : [values.timeZone] + Self.zones).map { zone in
                    ["value": zone, "selected": zone == values.timeZone] as [String: Any]
                },
        ]
        for name in ["days", "time_zone", "channels"] {
            if let key = errors[name] { data[name.replacingOccurrences(of: "_", with: "") + "Error"] = words(key) }
        }
        if let formError = state.formError { data["formError"] = formError }
        if !errors.isEmpty, state.formError == nil { data["formError"] = words("form_has_errors") }
        return web.page(
            "commute/form", title: words(state.trip == nil ? "new_title" : "edit_title"), data: data, visit: visit,
            status: status, scripts: ["commute-places.js"], styles: ["commute.css"])
    }

    /// The radios of one end: a search's options, plus the chosen place when the search no
    /// longer lists it. The flag says the places provider failed.
    func options(for end: CommutePlaceEnd, state: State) async -> ([CommutePlaceChoice.Option], Bool) {
        let chosen = state.values.choices[end]
        var options: [CommutePlaceChoice.Option]
        do {
            options = try await CommutePlaceChoice.search(state.values.queries[end] ?? "", places: places)
        } catch {
            return ([], true)
        }
        if !options.contains(where: { $0.value == chosen }),
            let kept = await CommutePlaceChoice.chosen(chosen, places: places)
        {
            options.insert(kept, at: 0)
        }
        return (options, false)
    }

    /// What the choices partial (`commute/place-choices`) shows for one end.
    static func choices(end: CommutePlaceEnd, options: [CommutePlaceChoice.Option], chosen: String?) -> [String: Any] {
        [
            "end": end.rawValue, "hasOptions": !options.isEmpty,
            "options": options.enumerated().map { index, option in
                [
                    "id": "\(end.rawValue)-choice-\(index + 1)", "value": option.value, "label": option.label,
                    "detail": option.detail, "checked": option.value == chosen,
                ] as [String: Any]
            },
        ]
    }

    private func current(_ end: CommutePlaceEnd, of trip: CommuteTrip?) -> CommutePlace? {
        guard let trip else { return nil }
        return end == .origin ? trip.origin : trip.destination
    }
}
