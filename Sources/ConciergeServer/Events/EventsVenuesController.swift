import ConciergeCore
import Foundation
import Hummingbird
import NIOCore

/// Venues, with the admin token: `POST /events/api/admin/venues` imports a layout JSON
/// (`VenueLayout`: sections of rows of seats), `GET …/venues` lists them, `GET …/venues/{id}`
/// answers one with its layout, in the import's format.
struct EventsVenuesController {
    let events: EventsService

    /// A 20,000-seat layout is about 1 MB of JSON; the usual 64 KB body limit would refuse
    /// most halls.
    static let maximumLayoutBytes = 4 * 1_048_576

    struct VenueBody: Encodable {
        struct SectionSummary: Encodable {
            let id: String
            let name: String
            let color: String
            let rank: Int
            let rows: Int
            let seats: Int
        }

        let success = true
        let id: String
        let name: String
        let location: String
        let timeZone: String
        let width: Int
        let height: Int
        let seats: Int
        let sections: [SectionSummary]
        /// Only for one venue: the layout as imported.
        let layout: VenueLayout?

        init(_ venue: EventVenue, layout: Bool) {
            id = venue.id
            name = venue.name
            location = venue.location
            timeZone = venue.timeZone
            width = venue.width
            height = venue.height
            seats = venue.seats.count
            sections = venue.sections.map {
                SectionSummary(
                    id: $0.id, name: $0.name, color: $0.color, rank: $0.rank, rows: Set($0.seats.map(\.rowIndex)).count,
                    seats: $0.seats.count)
            }
            self.layout = layout ? VenueLayout(venue) : nil
        }
    }

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.post("venues", use: importLayout)
        group.get("venues", use: list)
        group.get("venues/:id", use: detail)
    }

    @Sendable func importLayout(request: Request, context: AppRequestContext) async throws -> Response {
        let layout = try await Self.decodeLayout(request)
        let venue = try await events.importVenue(layout)
        return try jsonResponse(VenueBody(venue, layout: false), status: .created)
    }

    @Sendable func list(request: Request, context: AppRequestContext) async throws -> Response {
        try jsonResponse(try await events.venues().map { VenueBody($0, layout: false) })
    }

    @Sendable func detail(request: Request, context: AppRequestContext) async throws -> Response {
        try jsonResponse(VenueBody(try await events.venue(id: try context.parameters.require("id")), layout: true))
    }

    /// The layout, read up to its own limit; a larger body is `layout_too_large`, not the
    /// generic 64 KB answer.
    static func decodeLayout(_ request: Request) async throws -> VenueLayout {
        guard Request.declaresJSON(request.headers[.contentType]) else { throw UnsupportedMediaTypeError() }
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: maximumLayoutBytes)
        } catch is NIOTooManyBytesError {
            throw ConciergeError(
                .invalidInput, code: "layout_too_large",
                message:
                    "A layout is at most \(maximumLayoutBytes / 1_048_576) MB of JSON and \(VenueLayout.maximumSeats) seats."
            )
        }
        guard buffer.readableBytes > 0 else {
            throw ConciergeError(
                .invalidInput, code: "invalid_request", message: "The request needs a layout JSON body.")
        }
        if Request.containsEscapedNUL(buffer.readableBytesView) {
            throw ConciergeError(
                .invalidInput, code: "invalid_request", message: "The request contains a NUL character (\\u0000).")
        }
        do {
            return try JSONDecoder().decode(VenueLayout.self, from: Data(buffer: buffer))
        } catch let error as DecodingError {
            throw ConciergeError(.invalidInput, code: "invalid_layout", message: Request.explain(error).message)
        } catch {
            throw ConciergeError(.invalidInput, code: "invalid_layout", message: "The layout is not valid JSON.")
        }
    }
}
