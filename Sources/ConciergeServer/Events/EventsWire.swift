import ConciergeCore
import ConciergeModels

/// Domain values as the seed's wire types.
enum EventsWire {
    static func show(_ summary: ShowSummary) -> Events.Show {
        let show = summary.show
        let zone = summary.venue.timeZone
        let prices = show.prices.map(\.priceCents)
        return Events.Show(
            id: show.id, title: show.title, description: show.description,
            date: LocalShowTime.date(show.startsAt, zone: zone), time: LocalShowTime.time(show.startsAt, zone: zone),
            venue_name: summary.venue.name, location: summary.venue.location, imageUrl: show.imageURL,
            min_price: EventsMoney.units(prices.min() ?? 0), max_price: EventsMoney.units(prices.max() ?? 0),
            seatMapId: summary.venue.id,
            seat_pricing: show.prices.map { price in
                Events.SeatPricing(
                    category: price.category,
                    section: summary.venue.sections.first { $0.id == price.sectionID }?.name ?? price.sectionID,
                    price: EventsMoney.units(price.priceCents), priceCents: price.priceCents, color: price.color)
            }, startsAt: WireDate.string(from: show.startsAt), timeZone: zone, currency: show.currency,
            minPriceCents: prices.min() ?? 0, maxPriceCents: prices.max() ?? 0, availableSeats: summary.availableSeats,
            status: Events.Show.Status(rawValue: summary.status.rawValue) ?? .onSale,
            onSaleFrom: show.onSaleFrom.map { WireDate.string(from: $0) },
            onSaleUntil: show.onSaleUntil.map { WireDate.string(from: $0) })
    }

    static func seats(_ summary: ShowSummary, taken: [String: SeatState], mine: Set<String>, signedIn: Bool)
        -> [Events.Seat]
    {
        summary.venue.sections.flatMap { section in
            let price = summary.show.price(section: section.id)?.priceCents ?? 0
            return section.seats.map { seat in
                let state: Events.Seat.Status =
                    switch taken[seat.id] {
                    // House seats are simply not for sale, as far as buyers go.
                    case .sold, .house: .sold
                    case .reserved: .reserved
                    case .available, nil: .available
                    }
                return Events.Seat(
                    id: seat.id, row: seat.row, number: String(seat.number), section: section.name,
                    price: EventsMoney.units(price), status: state, seatMapId: summary.venue.id, priceCents: price,
                    currency: summary.show.currency, heldByYou: signedIn ? mine.contains(seat.id) : nil)
            }
        }
    }

    static func seatMap(_ summary: ShowSummary) -> Events.SeatMap {
        let venue = summary.venue
        return Events.SeatMap(
            id: venue.id, name: venue.name, width: venue.width, height: venue.height,
            stage: .init(x: venue.width / 4, y: 20, width: venue.width / 2, height: 60, label: "Stage"),
            sections: venue.sections.map { section in
                let category = summary.show.price(section: section.id)?.category ?? ""
                return .init(
                    id: section.id, name: section.name, color: section.color,
                    seats: section.seats.map {
                        .init(
                            id: $0.id, row: $0.row, number: String($0.number), x: $0.x, y: $0.y, category: category,
                            accessible: $0.accessible)
                    })
            })
    }

    static func booking(_ view: EventsService.BookingView) -> Events.UserBooking {
        let booking = view.booking
        let zone = view.venue.timeZone
        let seats = view.venue.seatsByID
        let sectionNames = Dictionary(view.venue.sections.map { ($0.id, $0.name) }) { first, _ in first }
        return Events.UserBooking(
            id: booking.orderID, showId: view.show.id, showTitle: view.show.title,
            showDate: LocalShowTime.date(view.show.startsAt, zone: zone),
            showTime: LocalShowTime.time(view.show.startsAt, zone: zone), venue: view.venue.name,
            seats: booking.tickets.map { ticket in
                let seat = seats[ticket.seatID]
                return Events.BookedSeat(
                    id: ticket.seatID, row: seat?.row ?? "", number: seat.map { String($0.number) } ?? "",
                    section: seat.flatMap { sectionNames[$0.sectionID] } ?? "",
                    price: EventsMoney.units(ticket.priceCents),
                    priceCents: ticket.priceCents)
            }, totalAmount: EventsMoney.units(booking.amountCents),
            bookingDate: WireDate.string(from: booking.createdAt),
            status: Events.UserBooking.Status(rawValue: booking.state.rawValue) ?? .pending, qrCode: view.qrCode,
            reference: booking.reference.code, totalAmountCents: booking.amountCents, currency: booking.currency)
    }
}
