import ConciergeCore
import Foundation
import HTTPTypes
import Hummingbird

/// `GET /events/shows/{id}`: one show with its seat map, the free seats as a list of checkboxes
/// by section and row (the way to choose without JavaScript; `events-seatmap.js` makes the map
/// choose the same checkboxes), and "best available". Both forms post to `…/hold`.
struct EventsShowPage {
    let web: WebFrontEnd
    let events: EventsService

    /// What a failed hold shows again: the sentence, where it goes, and the seats still chosen.
    struct Problem {
        var seatsError: String?
        var bestError: String?
        var pageError: String?
        /// The buyer must confirm their email first: the page links to a new confirmation link.
        var needsVerification = false
        var chosen: Set<String> = []
        var quantity: Int?
        var section: String?
        var status: HTTPResponse.Status = .ok
    }

    @Sendable func show(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        return try await page(showID: try EventsShowsController.showID(context), visit: visit, problem: Problem())
    }

    func page(showID: String, visit: WebVisit, problem: Problem) async throws -> Response {
        let words = EventsPageWords(web, visit)
        let (summary, snapshot, _) = try await events.seats(showID: showID, viewer: nil)
        let show = summary.show
        let taken = snapshot.taken
        var data = EventsShowListPage.card(summary, words: words)
        data["description"] = show.description
        data["signInHref"] = "/account/sign-in?next=" + WebFrontEnd.queryEscaped("/events/shows/\(show.id)")
        data["signUpHref"] = "/account/sign-up?next=" + WebFrontEnd.queryEscaped("/events/shows/\(show.id)")
        data["seatMap"] = EventsSeatMapMarkup.render(summary, taken: taken, words: words)
        data["sections"] = summary.venue.sections.map { section -> [String: Any] in
            let price = show.price(section: section.id).map { words.money($0.priceCents, show.currency) }
            let rows = section.rows.compactMap { row -> [String: Any]? in
                let free = row.filter { taken[$0.id] == nil }
                guard let first = free.first else { return nil }
                return [
                    "id": "row-\(section.id)-\(first.row)",
                    "label": words.text("row_label", ["row": first.row]),
                    "seats": free.map { seat -> [String: Any] in
                        [
                            "id": seat.id, "number": seat.number, "checked": problem.chosen.contains(seat.id),
                            "label": words.seat(seat, section: section.name, price: price),
                        ]
                    },
                ]
            }
            return [
                "id": section.id, "name": section.name, "rows": rows, "soldOut": rows.isEmpty,
                "price": price ?? "",
                "selected": problem.section == section.id,
            ]
        }
        data["quantities"] = (1...10).map { ["value": $0, "selected": $0 == (problem.quantity ?? 2)] }
        data["seatsError"] = problem.seatsError
        data["bestError"] = problem.bestError
        data["pageError"] = problem.pageError
        data["needsVerification"] = problem.needsVerification
        data["locale"] = visit.language == .de ? "de-CH" : "en-CH"
        data["currency"] = show.currency
        return web.page(
            "events/show", title: show.title, data: data, visit: visit, status: problem.status,
            scripts: ["events-seatmap.js"], styles: ["events.css"], address: "/events/shows/\(show.id)")
    }
}
