import ConciergeCore
import Foundation

/// The show's seat map as inline SVG for the show page, drawn from the same venue and seat
/// states as `SeatMapSVG` (the API's picture), but with every seat an element the page's script
/// can make a checkbox: `data-seat-id`, an `aria-label` in the visitor's language ("Row C,
/// seat 12, Stalls, CHF 85.00, available"), its state and price. Without the script the map is
/// one labelled picture and the page's seat list is the way to choose.
///
/// A seat's *state* is told by colour and shape together (accessibility review issue 1): free
/// seats are solid, a chosen seat carries a check mark, a held seat is a hollow dashed ring, a
/// sold one is crossed out; `events.css` draws them with the patterns defined here, each at
/// least 3:1 against the map. The *section* is told apart by a named, outlined area instead of
/// the section's colour, which used to contradict the key.
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
            \(statePatterns)
            """
        for section in venue.sections {
            let price = show.price(section: section.id)?.priceCents
            let priceText = price.map { words.money($0, show.currency) }
            svg += "<g class=\"section\" data-section=\"\(escape(section.id))\">\n"
            svg += sectionOutline(section, price: priceText)
            for seat in section.seats {
                let state = taken[seat.id].map { $0 == .house ? .sold : $0 } ?? .available
                let label = words.seat(seat, section: section.name, price: priceText)
                let fill = state == .available ? "#1e7b45" : state == .reserved ? "#fff" : "#5f5f66"
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

    /// The patterns `events.css` fills chosen and sold seats with: a white check mark on blue,
    /// a white cross on grey. Sized to each seat (`objectBoundingBox`), so one pattern serves
    /// every seat and the key's small circles too.
    static let statePatterns = """
        <defs>
        <pattern id="seat-chosen" patternContentUnits="objectBoundingBox" width="1" height="1">\
        <rect width="1" height="1" fill="#0a5fd1"/>\
        <path d="M.26 .52 L.44 .7 L.76 .32" fill="none" stroke="#fff" stroke-width=".14" stroke-linecap="round" \
        stroke-linejoin="round"/></pattern>
        <pattern id="seat-sold" patternContentUnits="objectBoundingBox" width="1" height="1">\
        <rect width="1" height="1" fill="#5f5f66"/>\
        <path d="M.3 .3 L.7 .7 M.7 .3 L.3 .7" stroke="#fff" stroke-width=".12" stroke-linecap="round"/></pattern>
        </defs>
        """

    /// A section's area: a dashed outline around its seats and its name (and price) above them,
    /// hidden from screen readers, whose seat labels already name the section.
    static func sectionOutline(_ section: EventSection, price: String?) -> String {
        guard let first = section.seats.first else { return "" }
        var (minX, maxX, minY, maxY) = (first.x, first.x, first.y, first.y)
        for seat in section.seats {
            minX = min(minX, seat.x)
            maxX = max(maxX, seat.x)
            minY = min(minY, seat.y)
            maxY = max(maxY, seat.y)
        }
        let name = price.map { "\(section.name) · \($0)" } ?? section.name
        return "<rect class=\"section-outline\" x=\"\(minX - 18)\" y=\"\(minY - 38)\" width=\"\(maxX - minX + 36)\" "
            + "height=\"\(maxY - minY + 56)\" rx=\"10\" aria-hidden=\"true\"/>\n"
            + "<text class=\"section-label\" x=\"\(minX - 10)\" y=\"\(minY - 18)\" aria-hidden=\"true\">"
            + "\(escape(name))</text>\n"
    }

    static func escape(_ text: String) -> String { HTMLPage.escape(text) }
}
