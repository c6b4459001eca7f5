import ConciergeCore
import Foundation
import Hummingbird

/// `/ops/events`: each show's sales and door figures (`EventsService.counts`, the box office
/// counts of `GET /events/api/admin/shows/{id}/counts`) as a table, with two bars per show
/// drawn as inline SVG (seats sold, held and blocked of the hall; tickets checked in of those
/// sold). The table carries the numbers; the bars are a picture of them.
struct EventsSalesPage {
    let web: WebFrontEnd
    let events: EventsService

    @Sendable func page(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        try web.requireOperator(visit)
        let words = EventsPageWords(web, visit)
        var query = ShowQuery()
        query.includePast = true
        query.limit = 100
        var rows: [[String: Any]] = []
        for summary in try await events.shows(query) {
            let counts = try await events.counts(showID: summary.show.id)
            let free = counts.seats - counts.sold - counts.reserved - counts.house
            rows.append([
                "title": summary.show.title, "href": "/events/shows/\(summary.show.id)",
                "when": words.showTime(summary.show.startsAt, venue: summary.venue),
                "status": words.text("status_\(summary.status.rawValue)"),
                "seats": counts.seats, "sold": counts.sold, "reserved": counts.reserved, "house": counts.house,
                "free": free, "orders": counts.confirmedOrders, "checkedIn": counts.checkedIn,
                "revenue": words.money(counts.revenueCents, counts.currency),
                "chart": Self.chart(counts, words: words),
            ])
        }
        return web.page(
            "ops/events", title: words.text("sales_title"), data: ["shows": rows, "none": rows.isEmpty],
            visit: visit, styles: ["events.css"])
    }

    /// Two bars in percent of their whole: the hall (sold, held, house) and the door (checked in
    /// of sold). Widths are SVG attributes, not styles: the pages' policy forbids inline styles.
    static func chart(_ counts: ShowCounts, words: EventsPageWords) -> String {
        func percent(_ part: Int, of whole: Int) -> Double {
            whole == 0 ? 0 : (Double(part) * 100 / Double(whole) * 10).rounded() / 10
        }
        let sold = percent(counts.sold, of: counts.seats)
        let held = percent(counts.reserved, of: counts.seats)
        let house = percent(counts.house, of: counts.seats)
        let door = percent(counts.checkedIn, of: counts.sold)
        let label = words.text(
            "sales_chart_label",
            [
                "sold": String(counts.sold), "seats": String(counts.seats), "held": String(counts.reserved),
                "checkedIn": String(counts.checkedIn),
            ])
        return """
            <svg class="sales-chart" viewBox="0 0 100 22" preserveAspectRatio="none" role="img" \
            aria-label="\(HTMLPage.escape(label))">
            <rect class="track" x="0" y="0" width="100" height="9"/>
            <rect class="sold" x="0" y="0" width="\(sold)" height="9"/>
            <rect class="held" x="\(sold)" y="0" width="\(held)" height="9"/>
            <rect class="house" x="\(sold + held)" y="0" width="\(house)" height="9"/>
            <rect class="track" x="0" y="13" width="100" height="9"/>
            <rect class="door" x="0" y="13" width="\(door)" height="9"/>
            </svg>
            """
    }
}
