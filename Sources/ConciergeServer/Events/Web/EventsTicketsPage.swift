import ConciergeCore
import Foundation
import Hummingbird

/// `GET /events/tickets`: the signed-in person's bookings, paid ones with one ticket (QR code
/// and typed code) per seat, each with a cancel button while it can be cancelled.
struct EventsTicketsPage {
    let web: WebFrontEnd
    let events: EventsService

    @Sendable func tickets(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let accountID = try web.requireSignIn(visit)
        let words = EventsPageWords(web, visit)
        let now = web.clock.now
        let views = try await events.bookings(accountID: accountID)
            .sorted { ($0.show.startsAt, $0.booking.createdAt) < ($1.show.startsAt, $1.booking.createdAt) }
        let cards = views.map { EventsBookingCard.data($0, words: words, now: now) }
        let current = cards.filter { ($0["upcoming"] as? Bool) == true && Self.isLive($0) }
        let other = cards.filter { !(($0["upcoming"] as? Bool) == true && Self.isLive($0)) }
        return web.page(
            "events/tickets", title: words.text("tickets_title"),
            data: [
                "current": current, "other": other, "none": cards.isEmpty, "hasOther": !other.isEmpty,
                "cancelledNotice": visit.path.contains("notice=cancelled"),
            ], visit: visit, styles: ["events.css"])
    }

    /// Paid, or held and waiting for the payment.
    static func isLive(_ card: [String: Any]) -> Bool {
        (card["confirmed"] as? Bool) == true || (card["holding"] as? Bool) == true
    }
}
