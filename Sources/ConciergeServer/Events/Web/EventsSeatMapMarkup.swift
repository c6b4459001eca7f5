import ConciergeCore
import Foundation

/// The show's seat map as inline SVG for the show page, drawn from the same venue and seat
/// states as `SeatMapSVG` (the API's picture), but with every seat an element the page's script
/// can make a checkbox: `data-seat-id`, an `aria-label` in the visitor's language ("Row C,
/// seat 12, Stalls, CHF 85.00, available"), its state and price. Without the script the map is
/// one labelled picture and the page's seat list is the way to choose.
enum EventsSeatMapMarkup {
    static func render(_ summary: ShowSummary, taken: [String: SeatState], words: EventsPageWords) -> String {
        let venue = summary.venue
        let show = summary.show
        let title = words.text("seatmap_title", ["venue": venue.name])
        var svg = """
            <svg class="seatmap" id="seatmap" viewBox="0 0 \(venue.width) \(venue.height)" role="img" \
            aria-label="\(escape(title))" data-show-id="\(escape(show.id))" \
            data-word-available="\(escape(words.state(.available)))" data-word-reserved="\(escape(words.state(.reserved)))" \
            data-word-sold="\(escape(words.state(.sold)))" data-word-selected="\(escape(words.text("state_selected")))">
            <rect class="stage" x="\(venue.width / 4)" y="20" width="\(venue.width / 2)" height="60" rx="8" fill="#34495e"/>
            <text class="stage-label" x="\(venue.width / 2)" y="56" text-anchor="middle" fill="#fff" aria-hidden="true">\
            \(escape(words.text("stage")))</text>

            """
        for section in venue.sections {
            let price = show.price(section: section.id)?.priceCents
            let priceText = price.map { words.money($0, show.currency) }
            svg += "<g class=\"section\" data-section=\"\(escape(section.id))\">\n"
            for seat in section.seats {
                let state = taken[seat.id].map { $0 == .house ? .sold : $0 } ?? .available
                let label = words.seat(seat, section: section.name, price: priceText)
                let fill = state == .available ? section.color : state == .reserved ? "#f1c40f" : "#95a5a6"
                svg +=
                    "<circle class=\"seat \(state.rawValue)\" data-seat-id=\"\(escape(seat.id))\" "
                    + "data-status=\"\(state.rawValue)\" data-label=\"\(escape(label))\" "
                    + "data-price-cents=\"\(price ?? 0)\" data-currency=\"\(escape(show.currency))\" "
                    + "aria-label=\"\(escape("\(label), \(words.state(state))"))\" "
                    + "cx=\"\(seat.x)\" cy=\"\(seat.y)\" r=\"11\" fill=\"\(escape(fill))\"/>\n"
            }
            svg += "</g>\n"
        }
        return svg + "</svg>\n"
    }

    static func escape(_ text: String) -> String { HTMLPage.escape(text) }
}
