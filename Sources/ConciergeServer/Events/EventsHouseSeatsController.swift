import ConciergeCore
import ConciergeModels
import Foundation
import Hummingbird

/// House seats, with the admin token: `POST /events/api/admin/shows/{id}/house-seats
/// {"seats": [...]}` blocks them (all or none; a held or sold seat is 409 `seats_unavailable`),
/// `DELETE` with the same body puts them back on sale, `GET` lists them.
struct EventsHouseSeatsController {
    let events: EventsService

    struct SeatsRequest: Decodable {
        let seats: [String]
    }

    struct HouseSeatsBody: Encodable {
        let success = true
        let showId: String
        let houseSeats: [String]
    }

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("shows/:id/house-seats", use: list)
        group.post("shows/:id/house-seats", use: block)
        group.delete("shows/:id/house-seats", use: release)
    }

    @Sendable func list(request: Request, context: AppRequestContext) async throws -> Response {
        let id = try EventsShowsController.showID(context)
        return try jsonResponse(HouseSeatsBody(showId: id, houseSeats: try await events.houseSeats(showID: id)))
    }

    @Sendable func block(request: Request, context: AppRequestContext) async throws -> Response {
        let id = try EventsShowsController.showID(context)
        let seats = try await Self.seats(request, context: context)
        do {
            let house = try await events.blockHouseSeats(showID: id, seatIDs: seats)
            return try jsonResponse(HouseSeatsBody(showId: id, houseSeats: house))
        } catch let error as SeatsUnavailableError {
            throw ConciergeError.seatsUnavailable(
                error.seatIDs,
                message: "These seats are held or sold, so they cannot be kept for the house: "
                    + "\(error.seatIDs.joined(separator: ", ")). Nothing was blocked.")
        }
    }

    @Sendable func release(request: Request, context: AppRequestContext) async throws -> Response {
        let id = try EventsShowsController.showID(context)
        let seats = try await Self.seats(request, context: context)
        return try jsonResponse(
            HouseSeatsBody(showId: id, houseSeats: try await events.releaseHouseSeats(showID: id, seatIDs: seats)))
    }

    static func seats(_ request: Request, context: AppRequestContext) async throws -> [String] {
        let seats = try await request.decodeJSON(SeatsRequest.self, context: context).seats
        guard seats.allSatisfy({ !$0.isEmpty && $0.count <= 100 }), Set(seats).count == seats.count else {
            throw ConciergeError(
                .invalidInput, code: "invalid_seats", message: "seats lists seat ids from the seat list, each once.")
        }
        return seats
    }
}
