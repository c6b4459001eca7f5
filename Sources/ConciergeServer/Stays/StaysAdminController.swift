import ConciergeCore
import ConciergeModels
import Hummingbird

/// `/stays/admin/…` (admin token): the hotel's settings, room types, rates and closures as
/// configured, the day's arrivals and departures, and occupancy per night.
struct StaysAdminController {
    let desk: StaysFrontDesk
    let stays: StaysService
    let wire: StaysWire
    let token: String

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.group("admin")
            .add(middleware: AdminTokenMiddleware(token: token))
            .get("hotel", use: hotel)
            .get("arrivals", use: arrivals)
            .get("departures", use: departures)
            .get("occupancy", use: occupancy)
    }

    @Sendable func hotel(request: Request, context: AppRequestContext) async throws -> Response {
        try StaysEnvelope.response(desk.hotel)
    }

    @Sendable func arrivals(request: Request, context: AppRequestContext) async throws -> Response {
        let night = try day(request, "date") ?? stays.today
        let list = try await desk.arrivals(on: night)
        return try StaysEnvelope.response(list.map { wire.reservation($0.0, guest: $0.1) })
    }

    @Sendable func departures(request: Request, context: AppRequestContext) async throws -> Response {
        let night = try day(request, "date") ?? stays.today
        let list = try await desk.departures(on: night)
        return try StaysEnvelope.response(list.map { wire.reservation($0.0, guest: $0.1) })
    }

    @Sendable func occupancy(request: Request, context: AppRequestContext) async throws -> Response {
        let first = try day(request, "from") ?? stays.today
        let last = try day(request, "to") ?? first.adding(days: 29, in: desk.hotel.calendar)
        let rows = try await desk.occupancy(from: first, to: last)
        let names = Dictionary(uniqueKeysWithValues: desk.hotel.roomTypes.map { ($0.id, $0.type) })
        return try StaysEnvelope.response(
            rows.map {
                Stays.OccupancyRow(
                    night: $0.night.description, roomTypeId: $0.roomTypeID, roomType: names[$0.roomTypeID] ?? "",
                    rooms: $0.rooms, booked: $0.booked, free: $0.free)
            })
    }

    /// A `YYYY-MM-DD` query parameter; absent is nil, anything else a field error.
    private func day(_ request: Request, _ name: String) throws -> StayNight? {
        guard let text = request.uri.queryParameters[name[...]].map(String.init) else { return nil }
        guard let night = StayNight(text) else { throw StaysValidationError([name: "Give \(name) as YYYY-MM-DD."]) }
        return night
    }
}
