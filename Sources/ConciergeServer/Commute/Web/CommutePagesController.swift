import ConciergeCore
import ConciergeModels
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The commute pages: `/commute` (my trips, each with its next leave time and the reasons),
/// adding, editing and deleting a trip under `/commute/my-trips/…` (paths the trip API does not
/// use), and the place choices a trip form's script asks for. Every change goes through the
/// same `CommuteService` calls as `/commute/trips`, so the rules and refusals are the API's.
struct CommutePagesController {
    let web: WebFrontEnd
    let service: CommuteService
    let places: any PlacesProvider
    let clock: any TimeSource

    func addRoutes(to pages: RouterGroup<AppRequestContext>) {
        pages.get("", use: index)
        pages.get("my-trips/new", use: newTrip)
        pages.post("my-trips/new", use: createTrip)
        pages.get("my-trips/places", use: placeChoices)
        pages.get("my-trips/:id/edit", use: editTrip)
        pages.post("my-trips/:id/edit", use: updateTrip)
        pages.get("my-trips/:id/delete", use: confirmDelete)
        pages.post("my-trips/:id/delete", use: deleteTrip)
    }

    private var form: CommuteTripFormPage { CommuteTripFormPage(web: web, places: places) }

    private func words(_ key: String, _ visit: WebVisit) -> String { web.strings.text("commute", key, visit.language) }

    // MARK: My trips

    @Sendable func index(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        guard let account = visit.accountID else {
            return web.page("commute/welcome", title: words("title", visit), visit: visit, styles: ["commute.css"])
        }
        let list = CommuteTripCards(web: web, service: service, clock: clock)
        var data: [String: Any] = ["trips": try await list.trips(accountID: account, visit: visit)]
        if let notice = request.uri.queryParameters.get("notice"), ["added", "saved", "deleted"].contains(notice) {
            data["notice"] = words("notice_\(notice)", visit)
        }
        return web.page(
            "commute/index", title: words("title", visit), data: data, visit: visit, styles: ["commute.css"])
    }

    // MARK: Adding

    @Sendable func newTrip(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        _ = try web.requireSignIn(visit)
        return await form.render(.init(values: CommuteTripFormValues()), visit: visit)
    }

    @Sendable func createTrip(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let account = try web.requireSignIn(visit)
        let posted = try await web.form(request, context: context, visit: visit)
        var state = CommuteTripFormPage.State(values: CommuteTripFormValues(form: posted))
        // "Find places": show what the words find, save nothing.
        if posted["find"] != nil { return await form.render(state, visit: visit) }
        let (input, errors) = state.values.input(editing: false)
        state.errors = errors
        guard errors.isEmpty else { return await form.render(state, visit: visit, status: .badRequest) }
        do {
            _ = try await service.createTrip(accountID: account, input: input)
            return web.redirect("/commute?notice=added", visit: visit)
        } catch let error as ConciergeError {
            return await refused(error, state: state, visit: visit)
        }
    }

    // MARK: Editing

    @Sendable func editTrip(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let account = try web.requireSignIn(visit)
        let trip = try await service.trip(id: try CommuteTripsController.tripID(context), accountID: account)
        return await form.render(.init(values: CommuteTripFormValues(trip: trip), trip: trip), visit: visit)
    }

    @Sendable func updateTrip(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let account = try web.requireSignIn(visit)
        let posted = try await web.form(request, context: context, visit: visit)
        let trip = try await service.trip(id: try CommuteTripsController.tripID(context), accountID: account)
        var state = CommuteTripFormPage.State(values: CommuteTripFormValues(form: posted), trip: trip)
        if posted["find"] != nil { return await form.render(state, visit: visit) }
        let (input, errors) = state.values.input(editing: true)
        state.errors = errors
        guard errors.isEmpty else { return await form.render(state, visit: visit, status: .badRequest) }
        do {
            _ = try await service.updateTrip(id: trip.id, accountID: account, input: input)
            return web.redirect("/commute?notice=saved", visit: visit)
        } catch let error as ConciergeError {
            return await refused(error, state: state, visit: visit)
        }
    }

    /// The form again with the service's refusal next to the field it concerns.
    private func refused(_ error: ConciergeError, state: CommuteTripFormPage.State, visit: WebVisit) async -> Response {
        var state = state
        if let (field, key) = CommuteTripFieldErrors.field(for: error) {
            state.errors[field] = key
        } else {
            state.formError = error.message
        }
        return await form.render(state, visit: visit, status: .badRequest)
    }

    // MARK: Deleting

    @Sendable func confirmDelete(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let account = try web.requireSignIn(visit)
        let trip = try await service.trip(id: try CommuteTripsController.tripID(context), accountID: account)
        return web.page(
            "commute/delete", title: words("delete_title", visit),
            data: [
                "trip": ["id": trip.id, "name": trip.name, "from": trip.origin.label, "to": trip.destination.label]
            ],
            visit: visit, styles: ["commute.css"])
    }

    @Sendable func deleteTrip(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let account = try web.requireSignIn(visit)
        _ = try await web.form(request, context: context, visit: visit)
        try await service.deleteTrip(id: try CommuteTripsController.tripID(context), accountID: account)
        return web.redirect("/commute?notice=deleted", visit: visit)
    }

    // MARK: Place choices for the form's script

    /// `?end=origin&q=Winter[&chosen=…]`: the radios of one end, as the form shows them.
    @Sendable func placeChoices(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        _ = try web.requireSignIn(visit)
        let query = WebForm(queryOf: request)
        let end = CommutePlaceEnd(rawValue: query["end"] ?? "") ?? .origin
        var values = CommuteTripFormValues()
        values.queries[end] = String((query["q"] ?? "").prefix(200))
        values.choices[end] = query["chosen"]
        let (options, failed) = await form.options(for: end, state: .init(values: values))
        var data = CommuteTripFormPage.choices(end: end, options: options, chosen: values.choices[end])
        data["t"] = web.strings.table(visit.language)
        if failed {
            data["searchFailed"] = words("error_place_search", visit)
        } else if options.isEmpty, let query = values.queries[end], !query.isEmpty {
            data["noResults"] = words("place_no_results", visit).replacingOccurrences(of: "{query}", with: query)
        }
        let html = web.templates.render(data, withTemplate: "commute/place-choices") ?? ""
        return Response(
            status: .ok,
            headers: [
                .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                .contentSecurityPolicy: WebFrontEnd.contentSecurityPolicy,
            ], body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}
