import ConciergeCore
import HTTPTypes
import Hummingbird

/// `/ops/stays?date=`: the front desk's day — who arrives and who leaves, and how full each of
/// the next two weeks' nights is, per room type and as bars (the admin API's arrivals,
/// departures and occupancy, through the same front desk).
struct StaysOperationsPage {
    let web: WebFrontEnd
    let stays: StaysService
    let desk: StaysFrontDesk

    static let days = 14

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("stays", use: page)
    }

    @Sendable func page(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        try web.requireOperator(visit)
        let hotel = try await stays.hotel()
        let view = StaysWebView(web: web, hotel: hotel, language: visit.language)
        let today = stays.today(in: hotel)
        var data: [String: Any] = ["hotel": hotel.name]
        var day = today
        var status = HTTPResponse.Status.ok
        if let asked = request.uri.queryParameters.get("date"), !asked.isEmpty {
            if let night = StayNight(asked) {
                day = night
            } else {
                data["dateError"] = view.text("ops_date_error")
                status = .badRequest
            }
        }
        let calendar = hotel.calendar
        data["date"] = day.description
        data["dayText"] = view.night(day)
        data["isToday"] = day == today
        data["previous"] = "/ops/stays?date=\(day.adding(days: -1, in: calendar))"
        data["next"] = "/ops/stays?date=\(day.adding(days: 1, in: calendar))"
        let arrivals = try await desk.arrivals(on: day)
        let departures = try await desk.departures(on: day)
        data["arrivals"] = arrivals.map { row($0.0, guest: $0.1, view: view) }
        data["departures"] = departures.map { row($0.0, guest: $0.1, view: view) }
        data["arrivalsHeading"] = view.text("ops_arrivals", ["n": String(arrivals.count)])
        data["departuresHeading"] = view.text("ops_departures", ["n": String(departures.count)])
        let rows = try await desk.occupancy(
            from: day, to: day.adding(days: Self.days - 1, in: calendar), hotel: hotel)
        data["roomTypes"] = hotel.roomTypes.map { $0.type }
        data["nights"] = StaysOccupancyChart.nights(rows, hotel: hotel, view: view)
        return web.page(
            "ops/stays", title: view.text("ops_title"), data: data, visit: visit, status: status,
            styles: ["stays.css"])
    }

    private func row(_ record: StaysReservationRecord, guest: StaysGuest, view: StaysWebView) -> [String: Any] {
        let name = "\(guest.firstName) \(guest.lastName)".trimmingCharacters(in: .whitespaces)
        return [
            "guest": name.isEmpty ? guest.username : name, "contact": guest.email.isEmpty ? guest.phone : guest.email,
            "type": view.hotel.roomType(id: record.roomTypeID)?.type ?? String(record.roomTypeID),
            "dates": view.text("from_to", ["from": view.night(record.checkIn), "to": view.night(record.checkOut)]),
            "people": view.people(record.people), "code": record.confirmationCode,
            "total": view.money(record.totalCents, currency: record.currency),
            "payment": record.paidAt != nil ? view.text("ops_prepaid") : view.text("ops_at_hotel"),
        ]
    }
}

/// Occupancy per night as the ops page draws it: booked and held rooms out of all, in numbers
/// and as an SVG bar (widths are attributes, so no inline style is needed).
enum StaysOccupancyChart {
    static func nights(_ rows: [StaysFrontDesk.Occupancy], hotel: HotelSettings, view: StaysWebView)
        -> [[String: Any]]
    {
        var order: [StayNight] = []
        var byNight: [StayNight: [StaysFrontDesk.Occupancy]] = [:]
        for row in rows {
            if byNight[row.night] == nil { order.append(row.night) }
            byNight[row.night, default: []].append(row)
        }
        return order.map { night in
            let nightRows = byNight[night] ?? []
            let rooms = nightRows.reduce(0) { $0 + $1.rooms }
            let booked = nightRows.reduce(0) { $0 + $1.booked }
            let held = nightRows.reduce(0) { $0 + $1.held }
            let bookedWidth = percent(booked, of: rooms)
            let heldWidth = min(100 - bookedWidth, percent(held, of: rooms))
            return [
                "night": view.night(night),
                "types": hotel.roomTypes.map { type in
                    let row = nightRows.first { $0.roomTypeID == type.id }
                    return view.text(
                        "ops_taken_short",
                        [
                            "taken": String((row?.booked ?? 0) + (row?.held ?? 0)),
                            "rooms": String(row?.rooms ?? 0),
                        ])
                },
                "bookedWidth": String(bookedWidth), "heldWidth": String(heldWidth), "heldX": String(bookedWidth),
                "summary": view.text(
                    "ops_taken",
                    [
                        "booked": String(booked), "held": String(held), "rooms": String(rooms),
                        "percent": String(percent(booked + held, of: rooms)),
                    ]),
            ]
        }
    }

    static func percent(_ part: Int, of whole: Int) -> Int {
        whole <= 0 ? 0 : min(100, Int((Double(part) * 100 / Double(whole)).rounded()))
    }
}
