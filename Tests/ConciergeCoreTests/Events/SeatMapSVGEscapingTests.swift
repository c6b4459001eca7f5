import Foundation
import Testing

@testable import ConciergeCore

/// Text built into SVG and HTML attributes escapes `"`, `'`, `<`, `>` and `&` (review 2026-11-27,
/// finding 9): the seat map with a hostile show title stays one labelled picture.
@Suite struct SeatMapSVGEscapingTests {
    @Test func markupEscapingCoversBothQuotes() {
        #expect(MarkupEscaping.escaped(#"a"b'c<d>e&f"#) == "a&quot;b&#39;c&lt;d&gt;e&amp;f")
        #expect(MarkupEscaping.escaped("Bühne 1") == "Bühne 1")
    }

    @Test func aShowTitleCannotAddAnAttributeToTheSeatMap() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let venue = DemoCatalogue.venue
        let show = EventShow(
            id: "shw", venueID: venue.id, title: #"X" onload='alert(1)' <&"#, description: "", imageURL: "",
            startsAt: now + 86_400, currency: "CHF", cancelled: false, prices: [], onSaleFrom: nil, onSaleUntil: nil)
        let svg = SeatMapSVG.render(ShowSummary(show: show, venue: venue, availableSeats: 1, now: now), taken: [:])
        #expect(!svg.contains(#"" onload"#) && !svg.contains("'alert"))
        #expect(svg.contains("X&quot; onload=&#39;alert(1)&#39; &lt;&amp;"))
    }
}
