public import Foundation

/// A show as the admin API creates it: a venue, a start, and price categories as pretix has them
/// (a name and a price in cents, here each for some of the venue's sections), and an on-sale window.
public struct ShowDraft: Sendable, Equatable {
    public var venueID: String
    public var title: String
    public var description: String
    public var imageURL: String
    public var startsAt: Date
    public var currency: String
    public var categories: [PriceCategory]
    public var onSaleFrom: Date?
    public var onSaleUntil: Date?

    public init(
        venueID: String, title: String, description: String, imageURL: String, startsAt: Date, currency: String,
        categories: [PriceCategory], onSaleFrom: Date?, onSaleUntil: Date?
    ) {
        self.venueID = venueID
        self.title = title
        self.description = description
        self.imageURL = imageURL
        self.startsAt = startsAt
        self.currency = currency
        self.categories = categories
        self.onSaleFrom = onSaleFrom
        self.onSaleUntil = onSaleUntil
    }

    /// An existing show on `venue` as a draft again, for a change.
    init(_ show: EventShow, venue: EventVenue) {
        let sectionColors = Dictionary(venue.sections.map { ($0.id, $0.color) }) { first, _ in first }
        var categories: [PriceCategory] = []
        for price in show.prices {
            // A category drawn in its sections' own colours keeps no colour of its own, so a
            // change of the title does not paint every section in the first one's.
            let color = price.color == sectionColors[price.sectionID] ? nil : price.color
            if let index = categories.firstIndex(where: { $0.name == price.category }) {
                categories[index].sections.append(price.sectionID)
                if categories[index].color == nil { categories[index].color = color }
            } else {
                categories.append(
                    PriceCategory(
                        name: price.category, priceCents: price.priceCents, color: color, sections: [price.sectionID]))
            }
        }
        self.init(
            venueID: show.venueID, title: show.title, description: show.description, imageURL: show.imageURL,
            startsAt: show.startsAt, currency: show.currency, categories: categories, onSaleFrom: show.onSaleFrom,
            onSaleUntil: show.onSaleUntil)
    }

    /// The show this draft describes on `venue` (validated first).
    func show(id: String, venue: EventVenue, cancelled: Bool = false) -> EventShow {
        let colors = Dictionary(venue.sections.map { ($0.id, $0.color) }) { first, _ in first }
        return EventShow(
            id: id, venueID: venue.id, title: title, description: description, imageURL: imageURL,
            startsAt: startsAt, currency: currency, cancelled: cancelled,
            prices: venue.sections.compactMap { section in
                guard let category = categories.first(where: { $0.sections.contains(section.id) }) else { return nil }
                return ShowPrice(
                    sectionID: section.id, category: category.name, priceCents: category.priceCents,
                    color: category.color ?? colors[section.id] ?? "#7f8c8d")
            }, onSaleFrom: onSaleFrom, onSaleUntil: onSaleUntil)
    }
}

/// One price category of a show: every seat of its sections costs `priceCents`.
public struct PriceCategory: Sendable, Equatable {
    public var name: String
    public var priceCents: Int
    /// `#rrggbb`; when left out, each section's own colour.
    public var color: String?
    public var sections: [String]

    public init(name: String, priceCents: Int, color: String?, sections: [String]) {
        self.name = name
        self.priceCents = priceCents
        self.color = color
        self.sections = sections
    }
}

/// A change to a show: each field given replaces the show's.
public struct ShowPatch: Sendable, Equatable {
    public var title: String?
    public var description: String?
    public var imageURL: String?
    public var startsAt: Date?
    public var currency: String?
    public var categories: [PriceCategory]?
    public var onSaleFrom: Date?
    public var onSaleUntil: Date?

    public init() {}
}
