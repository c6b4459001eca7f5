/// The seat map drawn: the stage, and each seat as a circle coloured by its state (free seats
/// in their section's colour, held ones amber, sold ones grey), with a title a screen reader
/// and a mouse hover both show.
public enum SeatMapSVG {
    public static let reservedColor = "#f1c40f"
    public static let soldColor = "#95a5a6"

    public static func render(_ summary: ShowSummary, taken: [String: SeatState]) -> String {
        let venue = summary.venue
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(venue.width) \(venue.height)" \
            width="\(venue.width)" height="\(venue.height)" role="img" aria-label="\(escape("Seat map of \(venue.name) for \(summary.show.title)"))">
            <rect x="\(venue.width / 4)" y="20" width="\(venue.width / 2)" height="60" rx="8" fill="#34495e"/>
            <text x="\(venue.width / 2)" y="56" text-anchor="middle" font-family="sans-serif" font-size="20" fill="#fff">Stage</text>

            """
        for section in venue.sections {
            let price = summary.show.price(section: section.id)
            svg += "<g id=\"\(escape(section.id))\" aria-label=\"\(escape(section.name))\">\n"
            for seat in section.seats {
                // House seats look sold: buyers need not know why a seat is not for sale.
                let state = taken[seat.id].map { $0 == .house ? .sold : $0 } ?? .available
                let fill =
                    switch state {
                    case .available: section.color
                    case .reserved: reservedColor
                    case .sold, .house: soldColor
                    }
                let priceText = price.map { " " + EventsMoney.format($0.priceCents, summary.show.currency) } ?? ""
                svg +=
                    "<circle id=\"\(escape(seat.id))\" cx=\"\(seat.x)\" cy=\"\(seat.y)\" r=\"11\" fill=\"\(escape(fill))\" "
                    + "data-status=\"\(state.rawValue)\"><title>\(escape("\(section.name) row \(seat.row) seat \(seat.number), \(state.rawValue)\(priceText)"))</title></circle>\n"
            }
            svg += "</g>\n"
        }
        return svg + "</svg>\n"
    }

    static func escape(_ text: String) -> String { MarkupEscaping.escaped(text) }
}
