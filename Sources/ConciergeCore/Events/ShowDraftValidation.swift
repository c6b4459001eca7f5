public import Foundation

/// The rules a new or changed show meets before anything is written; each broken one is a 400
/// `invalid_show` naming the field.
extension ShowDraft {
    /// Prices stay whole units: the seed's `price` fields are integers (EVENTS.md).
    public static let maximumPriceCents = 10_000_000

    public func validate(venue: EventVenue, now: Date, startsAtChanged: Bool = true) throws {
        try Self.text(title, "title", 1...200)
        try Self.text(description, "description", 0...2_000)
        try Self.text(imageURL, "imageUrl", 0...500)
        guard currency.count == 3, currency.allSatisfy({ $0.isASCII && $0.isUppercase }) else {
            throw Self.invalid("currency is a three-letter ISO code such as CHF or EUR.")
        }
        if startsAtChanged, startsAt <= now { throw Self.invalid("startsAt lies in the future.") }
        if let onSaleFrom, onSaleFrom >= startsAt { throw Self.invalid("onSaleFrom lies before the show starts.") }
        if let onSaleUntil, onSaleUntil > startsAt {
            throw Self.invalid("onSaleUntil is at the latest when the show starts (startsAt).")
        }
        if let onSaleFrom, let onSaleUntil, onSaleFrom >= onSaleUntil {
            throw Self.invalid("onSaleFrom lies before onSaleUntil.")
        }
        try validateCategories(venue: venue)
    }

    /// Every section of the venue in exactly one category, so every seat of the map has a price.
    private func validateCategories(venue: EventVenue) throws {
        guard !categories.isEmpty else { throw Self.invalid("A show has at least one price category.") }
        let sectionIDs = Set(venue.sections.map(\.id))
        var priced: Set<String> = []
        var names: Set<String> = []
        for (index, category) in categories.enumerated() {
            let place = "categories[\(index)]"
            try Self.text(category.name, "\(place).name", 1...40)
            guard names.insert(category.name).inserted else {
                throw Self.invalid("\(place): the category name '\(category.name)' is used twice.")
            }
            guard (0...Self.maximumPriceCents).contains(category.priceCents), category.priceCents % 100 == 0 else {
                throw Self.invalid(
                    "\(place).priceCents is a whole amount in cents (a multiple of 100, at most \(Self.maximumPriceCents))."
                )
            }
            if let color = category.color, !VenueLayout.isColor(color) {
                throw Self.invalid("\(place).color is a colour #rrggbb.")
            }
            guard !category.sections.isEmpty else {
                throw Self.invalid("\(place).sections names at least one section.")
            }
            for section in category.sections {
                guard sectionIDs.contains(section) else {
                    throw Self.invalid(
                        "\(place): the venue has no section '\(section.prefix(40))'; its sections are "
                            + venue.sections.map(\.id).joined(separator: ", ") + ".")
                }
                guard priced.insert(section).inserted else {
                    throw Self.invalid("The section '\(section)' is in two price categories; give it one.")
                }
            }
        }
        let unpriced = venue.sections.map(\.id).filter { !priced.contains($0) }
        guard unpriced.isEmpty else {
            throw Self.invalid(
                "Every section needs a price category; these have none: \(unpriced.joined(separator: ", ")).")
        }
    }

    private static func text(_ value: String, _ field: String, _ range: ClosedRange<Int>) throws {
        let blank = value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        guard range.contains(value.count), range.lowerBound == 0 || !blank else {
            throw invalid("\(field) is \(range.lowerBound) to \(range.upperBound) characters.")
        }
    }

    static func invalid(_ message: String) -> ConciergeError {
        ConciergeError(.invalidInput, code: "invalid_show", message: message)
    }
}
