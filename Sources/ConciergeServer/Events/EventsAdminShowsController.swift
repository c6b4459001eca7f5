import ConciergeCore
import ConciergeModels
import Foundation
import Hummingbird

/// Shows, with the admin token: `POST /events/api/admin/shows` creates one on a venue with price
/// categories per section and an on-sale window, `PATCH …/shows/{id}` changes those fields. Both
/// answer the show as the public list shows it (`Events.Show`, with `onSaleFrom`/`onSaleUntil`).
struct EventsAdminShowsController {
    let events: EventsService

    struct Category: Decodable {
        let name: String
        let priceCents: Int
        let color: String?
        let sections: [String]

        var domain: PriceCategory {
            PriceCategory(name: name, priceCents: priceCents, color: color, sections: sections)
        }
    }

    struct CreateRequest: Decodable {
        let venueId: String
        let title: String
        let description: String?
        let imageUrl: String?
        let startsAt: String
        let currency: String
        let categories: [Category]
        let onSaleFrom: String?
        let onSaleUntil: String?
    }

    struct PatchRequest: Decodable {
        let venueId: String?
        let title: String?
        let description: String?
        let imageUrl: String?
        let startsAt: String?
        let currency: String?
        let categories: [Category]?
        let onSaleFrom: String?
        let onSaleUntil: String?
    }

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.post("shows", use: create)
        group.patch("shows/:id", use: update)
    }

    @Sendable func create(request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(CreateRequest.self, context: context)
        let draft = ShowDraft(
            venueID: body.venueId, title: body.title, description: body.description ?? "",
            imageURL: body.imageUrl ?? "/events/static/show-1.svg",
            startsAt: try Self.instant(body.startsAt, "startsAt"),
            currency: body.currency, categories: body.categories.map(\.domain),
            onSaleFrom: try body.onSaleFrom.map { try Self.instant($0, "onSaleFrom") },
            onSaleUntil: try body.onSaleUntil.map { try Self.instant($0, "onSaleUntil") })
        return try jsonResponse(EventsWire.show(try await events.createShow(draft)), status: .created)
    }

    @Sendable func update(request: Request, context: AppRequestContext) async throws -> Response {
        let id = try EventsShowsController.showID(context)
        let body = try await request.decodePatch(PatchRequest.self, context: context)
        if let venue = body.venueId, try await events.show(id: id).venue.id != venue {
            throw ConciergeError(
                .conflict, code: "venue_fixed",
                message: "A show stays on the venue it was created on; create a new show on the other venue.")
        }
        var patch = ShowPatch()
        patch.title = body.title
        patch.description = body.description
        patch.imageURL = body.imageUrl
        patch.startsAt = try body.startsAt.map { try Self.instant($0, "startsAt") }
        patch.currency = body.currency
        patch.categories = body.categories?.map(\.domain)
        patch.onSaleFrom = try body.onSaleFrom.map { try Self.instant($0, "onSaleFrom") }
        patch.onSaleUntil = try body.onSaleUntil.map { try Self.instant($0, "onSaleUntil") }
        return try jsonResponse(EventsWire.show(try await events.updateShow(id: id, patch)))
    }

    /// An ISO 8601 instant with its offset (`2026-12-01T19:30:00Z`, `…+01:00`).
    static func instant(_ text: String, _ field: String) throws -> Date {
        guard text.count <= 40, let date = WireDate.date(from: text) else {
            throw ConciergeError(
                .invalidInput, code: "invalid_show",
                message: "\(field) is an ISO 8601 date and time with its offset, such as 2026-12-01T19:30:00Z.")
        }
        return date
    }
}
