import ConciergeCore
import ConciergeModels
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// `/events/api/shows…`: the list with search and filters, one show, its seats and its map.
struct EventsShowsController {
    let events: EventsService
    let sessions: SessionService
    let seatLists = SeatListBodies()

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        let shows = group.group("api/shows")
        shows.get(use: list)
        shows.get(":id", use: detail)
        shows.group().add(middleware: OptionalEventsSessionMiddleware(sessions: sessions)).get(":id/seats", use: seats)
        shows.get(":id/seatmap", use: seatMap)
        shows.get(":id/seatmap.svg", use: seatMapSVG)
    }

    @Sendable func list(request: Request, context: AppRequestContext) async throws -> Response {
        let query = try Self.query(request)
        let page = try await events.shows(query)
        var response = try jsonResponse(page.map(EventsWire.show))
        // The seed's answer is a bare array, so the next page's cursor travels in a header.
        if page.count == query.limit { response.headers[.nextCursor] = String(query.offset + query.limit) }
        return response
    }

    @Sendable func detail(request: Request, context: AppRequestContext) async throws -> Response {
        try jsonResponse(EventsWire.show(try await events.show(id: try Self.showID(context))))
    }

    @Sendable func seats(request: Request, context: AppRequestContext) async throws -> Response {
        let viewer = context.platformSession?.accountID
        let (summary, taken, mine) = try await events.seats(showID: try Self.showID(context), viewer: viewer)
        return Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: seatLists.body(summary, taken: taken, mine: mine, signedIn: viewer != nil)))
    }

    @Sendable func seatMap(request: Request, context: AppRequestContext) async throws -> Response {
        try jsonResponse(EventsWire.seatMap(try await events.show(id: try Self.showID(context))))
    }

    @Sendable func seatMapSVG(request: Request, context: AppRequestContext) async throws -> Response {
        let (summary, taken, _) = try await events.seats(showID: try Self.showID(context), viewer: nil)
        return Response(
            status: .ok, headers: [.contentType: "image/svg+xml; charset=utf-8", .cacheControl: "no-cache"],
            body: .init(byteBuffer: ByteBuffer(string: SeatMapSVG.render(summary, taken: taken.taken))))
    }

    static func showID(_ context: AppRequestContext) throws -> String {
        let id = try context.parameters.require("id")
        guard id.count <= 100 else {
            throw ConciergeError(.notFound, code: "show_not_found", message: "There is no such show.")
        }
        return id
    }

    static func query(_ request: Request) throws -> ShowQuery {
        let parameters = Query(request)
        // Present but empty is a mistake for every typed parameter (`to=` is not a date).
        func raw(_ name: String) -> String? { parameters.parameters[name[...]].map(String.init) }
        func integer(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
            guard let text = raw(name) else { return nil }
            guard let value = Int(text), range.contains(value) else {
                throw ConciergeError(
                    .invalidInput, code: "invalid_request",
                    message:
                        "The query parameter '\(name)' is a whole number from \(range.lowerBound) to \(range.upperBound)."
                )
            }
            return value
        }
        var query = ShowQuery()
        query.text = try bounded(parameters.optional("q"), "q")
        query.from = try localDate(raw("from"), "from")
        query.to = try localDate(raw("to"), "to")
        query.venue = try bounded(parameters.optional("venue"), "venue")
        if let maxPrice = try integer("maxPrice", in: 0...1_000_000) { query.maxPriceCents = maxPrice * 100 }
        switch raw("includePast") {
        case nil, "false": query.includePast = false
        case "true": query.includePast = true
        default:
            throw ConciergeError(.invalidInput, code: "invalid_request", message: "includePast is true or false.")
        }
        query.limit = try integer("limit", in: 1...100) ?? 50
        if let cursor = raw("cursor") {
            guard cursor.count <= 7, cursor.allSatisfy({ $0.isASCII && $0.isNumber }), let offset = Int(cursor),
                offset >= 0
            else {
                throw ConciergeError(
                    .invalidInput, code: "invalid_cursor",
                    message: "This cursor is not one the list gave out (X-Next-Cursor). Start from the first page.")
            }
            query.offset = offset
        }
        return query
    }

    private static func bounded(_ text: String?, _ name: String) throws -> String? {
        guard let text else { return nil }
        guard text.unicodeScalars.count <= 200 else {
            throw ConciergeError(
                .invalidInput, code: "invalid_request",
                message: "The query parameter '\(name)' is too long (200 at most).")
        }
        return text
    }

    /// A real calendar day `YYYY-MM-DD` (no 31 April, 29 February only in leap years).
    private static func localDate(_ text: String?, _ name: String) throws -> String? {
        guard let text else { return nil }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        let digits = parts.map { $0.allSatisfy { $0.isASCII && $0.isNumber } }
        guard text.count == 10, parts.count == 3, parts.map(\.count) == [4, 2, 2], !digits.contains(false),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]), year >= 1,
            (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year)
        else {
            throw ConciergeError(
                .invalidInput, code: "invalid_request", message: "The query parameter '\(name)' is a date YYYY-MM-DD.")
        }
        return text
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

extension HTTPField.Name {
    static let nextCursor = Self("X-Next-Cursor")!
}
