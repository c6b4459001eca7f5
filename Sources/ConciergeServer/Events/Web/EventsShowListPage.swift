import ConciergeCore
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// `GET /events`: the shows with search and filters, parsed exactly as the API's show list
/// (`EventsShowsController.query`), so a filter means the same on the page and in the app.
struct EventsShowListPage {
    let web: WebFrontEnd
    let events: EventsService

    /// The filters the page's form sends; an empty field is simply no filter.
    static let filters = ["q", "from", "to", "venue", "maxPrice", "cursor"]

    @Sendable func list(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let words = EventsPageWords(web, visit)
        let form = WebForm(queryOf: request)
        let given = Self.filters.compactMap { name in form[name].flatMap { $0.isEmpty ? nil : (name, $0) } }
        var data: [String: Any] = Dictionary(given.map { ($0.0, $0.1) }) { first, _ in first }
        var status = HTTPResponse.Status.ok
        do {
            let query = try EventsShowsController.query(Self.request(with: given))
            let shows = try await events.shows(query)
            data["shows"] = shows.map { Self.card($0, words: words) }
            data["none"] = shows.isEmpty
            if shows.count == query.limit {
                let kept = given.filter { $0.0 != "cursor" } + [("cursor", String(query.offset + query.limit))]
                data["nextPage"] =
                    "/events?" + kept.map { "\($0.0)=\(WebFrontEnd.queryEscaped($0.1))" }.joined(separator: "&")
            }
            data["filtered"] = !given.isEmpty
        } catch let error as ConciergeError {
            // The API names the parameter it refuses ('from'); the sentence goes next to that field.
            status = .badRequest
            let field = Self.filters.first { error.message.contains("'\($0)'") } ?? "q"
            data["\(field)Error"] = words.error(error)
            data["shows"] = [[String: Any]]()
        }
        return web.page(
            "events/list", title: words.text("list_title"), data: data, visit: visit, status: status,
            styles: ["events.css"])
    }

    static func card(_ summary: ShowSummary, words: EventsPageWords) -> [String: Any] {
        let show = summary.show
        let cheapest = show.prices.map(\.priceCents).min() ?? 0
        return [
            "id": show.id, "title": show.title, "href": "/events/shows/\(show.id)",
            "when": words.showTime(show.startsAt, venue: summary.venue),
            "venue": summary.venue.name, "location": summary.venue.location,
            "from": words.text("price_from", ["price": words.money(cheapest, show.currency)]),
            "seatsLeft": words.text("seats_left", ["count": String(summary.availableSeats)]),
            "status": words.text("status_\(summary.status.rawValue)"),
            "onSale": summary.status == .onSale,
        ]
    }

    /// A GET request carrying only the filters the person filled in, for the API's parser.
    static func request(with parameters: [(String, String)]) -> Request {
        let query = parameters.map { "\($0.0)=\(WebFrontEnd.queryEscaped($0.1))" }.joined(separator: "&")
        let head = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/events/api/shows?\(query)")
        return Request(head: head, body: .init(buffer: ByteBuffer()))
    }
}
