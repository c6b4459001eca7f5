import ConciergeCore
import ConciergeModels
import Hummingbird

/// `GET /stays/rooms?dStartTime=&dEndTime=&guests=&children=`: the room types free on every
/// night of the range that hold the party, priced for it.
struct StaysRoomsController {
    let stays: StaysService
    let sessions: SessionService
    let wire: StaysWire

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.group("rooms")
            .add(middleware: PlatformSessionMiddleware(sessions: sessions))
            .group(context: StaysSignedInContext.self)
            .get(use: rooms)
    }

    @Sendable func rooms(request: Request, context: StaysSignedInContext) async throws -> Response {
        let query = Query(request)
        let hotel = try await stays.hotel()
        // Present but empty is a wrong number, not an absent one.
        if query.parameters["children"] == "" {
            throw StaysValidationError(["children": "Give children as a whole number."])
        }
        let range = try StaysQuery.range(
            query.optional("dStartTime"), query.optional("dEndTime"), stays: stays, hotel: hotel,
            fields: ("dStartTime", "dEndTime"))
        let people = try stays.people(
            guests: try StaysQuery.integer(query.optional("guests"), field: "guests", required: true) ?? 1,
            children: try StaysQuery.integer(query.optional("children"), field: "children", required: false),
            hotel: hotel)
        let offers = try await stays.availableRooms(range: range, people: people, hotel: hotel)
        return StaysEnvelope.rooms(
            offers.map { wire.room($0.roomType, quote: $0.quote, available: $0.available, hotel: hotel) },
            message: offers.isEmpty ? "No room is free for these dates." : "OK")
    }
}

/// Dates and numbers from the query and the body, with per-field messages.
enum StaysQuery {
    static func range(
        _ start: String?, _ end: String?, stays: StaysService, hotel: HotelSettings,
        fields: (checkIn: String, checkOut: String)
    ) throws -> StayRange {
        let calendar = hotel.calendar
        var problems: [String: String] = [:]
        let checkIn = start.flatMap { StayRange.night($0, in: calendar) }
        let checkOut = end.flatMap { StayRange.night($0, in: calendar) }
        if checkIn == nil { problems[fields.checkIn] = "Give the check-in date as YYYY-MM-DD or epoch milliseconds." }
        if checkOut == nil {
            problems[fields.checkOut] = "Give the check-out date as YYYY-MM-DD or epoch milliseconds."
        }
        guard let checkIn, let checkOut, problems.isEmpty else { throw StaysValidationError(problems) }
        return try StayRange(
            checkIn: checkIn, checkOut: checkOut, today: stays.today(in: hotel), hotel: hotel, fields: fields)
    }

    static func range(millis checkIn: Int64, _ checkOut: Int64, stays: StaysService, hotel: HotelSettings) throws
        -> StayRange
    {
        let calendar = hotel.calendar
        guard let start = StayRange.night(millis: checkIn, in: calendar) else {
            throw StaysValidationError(["checkIn": "Give check-in as epoch milliseconds."])
        }
        guard let end = StayRange.night(millis: checkOut, in: calendar) else {
            throw StaysValidationError(["checkOut": "Give check-out as epoch milliseconds."])
        }
        return try StayRange(checkIn: start, checkOut: end, today: stays.today(in: hotel), hotel: hotel)
    }

    static func integer(_ text: String?, field: String, required: Bool) throws -> Int? {
        guard let text else {
            if required { throw StaysValidationError([field: "Give \(field) as a whole number."]) }
            return nil
        }
        guard text.count <= 6, let value = Int(text) else {
            throw StaysValidationError([field: "Give \(field) as a whole number."])
        }
        return value
    }
}
