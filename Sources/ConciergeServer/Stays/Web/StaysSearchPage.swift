import ConciergeCore
import Hummingbird

/// `/stays` and `/stays/search?checkIn=&checkOut=&guests=`: the search form, and the room types
/// free on every night for the party, priced for the stay (the API's `GET /stays/rooms`).
/// Searching needs no sign-in; reserving does.
struct StaysSearchPage {
    let web: WebFrontEnd
    let stays: StaysService

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("", use: start)
        group.get("search", use: search)
    }

    @Sendable func start(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let hotel = try await stays.hotel()
        let view = StaysWebView(web: web, hotel: hotel, language: visit.language)
        let today = stays.today(in: hotel)
        var data = form(
            view, checkIn: today.adding(days: 1, in: hotel.calendar).description,
            checkOut: today.adding(days: 3, in: hotel.calendar).description, guests: "2", today: today)
        if request.uri.queryParameters.get("welcome") != nil { data["notice"] = view.text("welcome") }
        return web.page(
            "stays/search", title: view.text("search_title"), data: data, visit: visit, scripts: ["stays-dates.js"],
            styles: ["stays.css"])
    }

    @Sendable func search(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let hotel = try await stays.hotel()
        let view = StaysWebView(web: web, hotel: hotel, language: visit.language)
        let query = request.uri.queryParameters
        let checkIn = query.get("checkIn") ?? ""
        let checkOut = query.get("checkOut") ?? ""
        let guests = query.get("guests") ?? ""
        var data = form(view, checkIn: checkIn, checkOut: checkOut, guests: guests, today: stays.today(in: hotel))
        do {
            let range = try StaysQuery.range(
                checkIn, checkOut, stays: stays, hotel: hotel, fields: ("checkIn", "checkOut"))
            let people = try stays.people(
                guests: try StaysQuery.integer(guests, field: "guests", required: true) ?? 1, children: nil,
                hotel: hotel)
            let offers = try await stays.availableRooms(range: range, people: people, hotel: hotel)
            data["searched"] = true
            data["summary"] = view.text(
                "search_summary",
                [
                    "nights": view.nights(range.nights.count), "from": view.night(range.checkIn),
                    "to": view.night(range.checkOut), "people": view.people(people),
                ])
            data["rooms"] = offers.map { room($0, range: range, people: people, view: view) }
        } catch let error as StaysValidationError {
            data["errors"] = Self.fieldErrors(error, view: view)
            return web.page(
                "stays/search", title: view.text("search_title"), data: data, visit: visit, status: .badRequest,
                scripts: ["stays-dates.js"], styles: ["stays.css"])
        }
        return web.page(
            "stays/search", title: view.text("results_title"), data: data, visit: visit, scripts: ["stays-dates.js"],
            styles: ["stays.css"])
    }

    private func form(_ view: StaysWebView, checkIn: String, checkOut: String, guests: String, today: StayNight)
        -> [String: Any]
    {
        let hotel = view.hotel
        return [
            "hotel": hotel.name,
            "hours": view.text(
                "hotel_hours",
                ["in": view.hour(hotel.checkInHour), "out": view.hour(hotel.checkOutHour), "zone": hotel.timeZone]),
            "checkIn": checkIn, "checkOut": checkOut, "today": today.description,
            "guestOptions": (1...hotel.maxGuests).map { count in
                ["value": String(count), "label": view.people(count), "selected": String(count) == guests]
            },
        ]
    }

    private func room(_ offer: StaysService.RoomOffer, range: StayRange, people: Int, view: StaysWebView)
        -> [String: Any]
    {
        var room = view.roomType(offer.roomType)
        room["perNight"] = view.text("per_night", ["price": view.money(offer.quote.averageNightlyCents)])
        room["cityTax"] = view.text("city_tax_amount", ["price": view.money(offer.quote.cityTaxCents)])
        room["total"] = view.money(offer.quote.totalCents)
        room["totalLabel"] = view.text("total_for", ["nights": view.nights(offer.quote.nights)])
        room["left"] = view.text(offer.available == 1 ? "left_one" : "left_other", ["n": String(offer.available)])
        room["reserve"] =
            "/stays/reserve?room=\(offer.roomType.id)&checkIn=\(range.checkIn)&checkOut=\(range.checkOut)&guests=\(people)"
        room["reserveLabel"] = view.text("reserve_room", ["type": offer.roomType.type])
        return room
    }

    /// Each refused field's sentence, under the name of the page's field it concerns.
    static func fieldErrors(_ error: StaysValidationError, view: StaysWebView) -> [String: String] {
        var fields: [String: String] = [:]
        for (field, message) in error.fields {
            let name = field == "children" ? "guests" : field
            fields[name] = view.message(message)
        }
        return fields
    }
}
