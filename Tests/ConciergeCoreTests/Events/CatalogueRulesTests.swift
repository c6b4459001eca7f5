import Foundation
import Testing

@testable import ConciergeCore

/// The admin API's catalogue rules on their own: the demo hall as a layout, a show's status in
/// and around its on-sale window, and a show's categories pricing every section once.
@Suite struct CatalogueRulesTests {
    @Test func theDemoHallIsAValidLayoutWithTheSeatIdsBuyersKnow() throws {
        try DemoCatalogue.layout.validate()
        let venue = DemoCatalogue.venue
        #expect(venue.seats.count == 336 && venue.sections.map(\.id) == ["stalls", "circle", "gallery"])
        #expect(venue.seats.first { $0.id == "stalls-A9" }?.rowIndex == 0)
        #expect(venue.seats.first { $0.id == "gallery-Q14" }?.sectionID == "gallery")
        #expect(venue.sections.map(\.rank) == [1, 2, 3] && venue.width == 800)
        #expect(VenueLayout(venue) == DemoCatalogue.layout)
    }

    @Test func aShowIsOnSaleOnlyInsideItsWindow() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let venue = DemoCatalogue.venue
        func status(from: TimeInterval?, until: TimeInterval?, seats: Int = 10) -> ShowSummary.Status {
            let show = EventShow(
                id: "shw", venueID: venue.id, title: "T", description: "", imageURL: "", startsAt: now + 86_400,
                currency: "CHF", cancelled: false, prices: [], onSaleFrom: from.map { now + $0 },
                onSaleUntil: until.map { now + $0 })
            return ShowSummary(show: show, venue: venue, availableSeats: seats, now: now).status
        }
        #expect(status(from: nil, until: nil) == .onSale)
        #expect(status(from: 1, until: nil) == .notYetOnSale)
        #expect(status(from: 0, until: nil) == .onSale)
        #expect(status(from: -60, until: 0) == .salesEnded)
        #expect(status(from: -60, until: 60) == .onSale)
        #expect(status(from: -60, until: 60, seats: 0) == .soldOut)
        #expect(status(from: 60, until: nil, seats: 0) == .notYetOnSale)
    }

    @Test func everySectionIsPricedExactlyOnce() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        var draft = ShowDraft(
            venueID: DemoCatalogue.venueID, title: "T", description: "", imageURL: "", startsAt: now + 86_400,
            currency: "CHF",
            categories: [
                PriceCategory(name: "A", priceCents: 9_000, color: nil, sections: ["stalls", "circle"]),
                PriceCategory(name: "B", priceCents: 3_000, color: "#123456", sections: ["gallery"]),
            ], onSaleFrom: nil, onSaleUntil: nil)
        try draft.validate(venue: DemoCatalogue.venue, now: now)
        let show = draft.show(id: "shw", venue: DemoCatalogue.venue)
        #expect(show.prices.map(\.category) == ["A", "A", "B"])
        #expect(show.prices.map(\.color) == ["#c0392b", "#2980b9", "#123456"])
        #expect(ShowDraft(show, venue: DemoCatalogue.venue).categories == draft.categories)

        draft.categories[1].sections = []
        #expect(throws: ConciergeError.self) { try draft.validate(venue: DemoCatalogue.venue, now: now) }
        draft.categories[1].sections = ["gallery", "stalls"]
        #expect(throws: ConciergeError.self) { try draft.validate(venue: DemoCatalogue.venue, now: now) }
        draft.categories[1].sections = ["gallery"]
        draft.categories[0].priceCents = 9_050
        #expect(throws: ConciergeError.self) { try draft.validate(venue: DemoCatalogue.venue, now: now) }
    }
}
