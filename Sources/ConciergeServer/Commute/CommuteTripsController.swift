import ConciergeCore
import ConciergeModels
import Foundation
import Hummingbird

/// `/commute/trips…`: a person's trips, their recommendations and observations.
struct CommuteTripsController {
    let service: CommuteService
    let auth: CommuteAuthenticator

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("trips", use: list)
        group.post("trips", use: create)
        group.get("trips/:id", use: show)
        group.patch("trips/:id", use: update)
        group.delete("trips/:id", use: delete)
        group.get("trips/:id/recommendation", use: recommendation)
        group.post("trips/:id/observations", use: observe)
        group.get("trips/:id/observations", use: observations)
        group.put("trips/:id/live-activity", use: registerLiveActivity)
        group.delete("trips/:id/live-activity", use: unregisterLiveActivity)
    }

    @Sendable func list(request: Request, context: AppRequestContext) async throws -> Response {
        let account = try await auth.accountID(request, context: context)
        return try jsonResponse(CommuteTripList(trips: try await service.trips(accountID: account)))
    }

    @Sendable func create(request: Request, context: AppRequestContext) async throws -> Response {
        let account = try await auth.accountID(request, context: context)
        let input = try await request.decodeJSON(CommuteTripInput.self, context: context)
        return try jsonResponse(try await service.createTrip(accountID: account, input: input), status: .created)
    }

    @Sendable func show(request: Request, context: AppRequestContext) async throws -> Response {
        let account = try await auth.accountID(request, context: context)
        return try jsonResponse(try await service.trip(id: try Self.tripID(context), accountID: account))
    }

    @Sendable func update(request: Request, context: AppRequestContext) async throws -> Response {
        let account = try await auth.accountID(request, context: context)
        let id = try Self.tripID(context)
        let input = try await request.decodePatch(CommuteTripInput.self, context: context)
        return try jsonResponse(try await service.updateTrip(id: id, accountID: account, input: input))
    }

    @Sendable func delete(request: Request, context: AppRequestContext) async throws -> Response {
        let account = try await auth.accountID(request, context: context)
        try await service.deleteTrip(id: try Self.tripID(context), accountID: account)
        return Response(status: .noContent)
    }

    @Sendable func recommendation(request: Request, context: AppRequestContext) async throws -> Response {
        let account = try await auth.accountID(request, context: context)
        let id = try Self.tripID(context)
        let day = request.optionalQuery("date")
        return try jsonResponse(try await service.recommendation(tripID: id, accountID: account, day: day))
    }

    @Sendable func observe(request: Request, context: AppRequestContext) async throws -> Response {
        let account = try await auth.accountID(request, context: context)
        let id = try Self.tripID(context)
        let input = try await request.decodeJSON(CommuteObservationInput.self, context: context)
        return try jsonResponse(
            try await service.observe(tripID: id, accountID: account, input: input), status: .created)
    }

    @Sendable func observations(request: Request, context: AppRequestContext) async throws -> Response {
        let account = try await auth.accountID(request, context: context)
        let id = try Self.tripID(context)
        return try jsonResponse(
            CommuteObservationList(observations: try await service.observations(tripID: id, accountID: account)))
    }

    @Sendable func registerLiveActivity(request: Request, context: AppRequestContext) async throws -> Response {
        let account = try await auth.accountID(request, context: context)
        let id = try Self.tripID(context)
        let input = try await request.decodeJSON(CommuteLiveActivityInput.self, context: context)
        return try jsonResponse(try await service.registerLiveActivity(tripID: id, accountID: account, input: input))
    }

    @Sendable func unregisterLiveActivity(request: Request, context: AppRequestContext) async throws -> Response {
        let account = try await auth.accountID(request, context: context)
        try await service.unregisterLiveActivity(tripID: try Self.tripID(context), accountID: account)
        return Response(status: .noContent)
    }

    /// Ids are ours (`trp_` and 32 hex digits); anything much longer cannot be one.
    static func tripID(_ context: AppRequestContext) throws -> String {
        guard let id = context.parameters.get("id"), id.count <= 100 else {
            throw ConciergeError(.notFound, code: "trip_not_found", message: "There is no such trip.")
        }
        return id
    }
}

/// `POST /commute/predict`, devices and the notice history.
struct CommuteAccountController {
    let service: CommuteService
    let auth: CommuteAuthenticator

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.post("predict", use: predict)
        group.post("devices", use: registerDevice)
        group.delete("devices/:token", use: deleteDevice)
        group.get("notifications", use: notifications)
    }

    @Sendable func predict(request: Request, context: AppRequestContext) async throws -> Response {
        _ = try await auth.accountID(request, context: context)
        let input = try await request.decodeJSON(PredictRequest.self, context: context)
        return try jsonResponse(try await service.predict(input))
    }

    @Sendable func registerDevice(request: Request, context: AppRequestContext) async throws -> Response {
        let caller = try await auth.caller(request, context: context)
        let input = try await request.decodeJSON(CommuteDeviceInput.self, context: context)
        return try jsonResponse(
            try await service.registerDevice(accountID: caller.accountID, sessionID: caller.sessionID, input: input),
            status: .created)
    }

    @Sendable func deleteDevice(request: Request, context: AppRequestContext) async throws -> Response {
        let account = try await auth.accountID(request, context: context)
        guard let token = context.parameters.get("token"), token.count <= 200 else {
            throw ConciergeError(.notFound, code: "device_not_found", message: "No such device is registered.")
        }
        try await service.deleteDevice(accountID: account, token: token)
        return Response(status: .noContent)
    }

    @Sendable func notifications(request: Request, context: AppRequestContext) async throws -> Response {
        let account = try await auth.accountID(request, context: context)
        return try jsonResponse(
            CommuteNotificationList(notifications: try await service.notifications(accountID: account)))
    }
}
