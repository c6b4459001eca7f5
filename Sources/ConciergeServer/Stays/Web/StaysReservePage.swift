import ConciergeCore
import HTTPTypes
import Hummingbird

/// `/stays/reserve`: one room type for the chosen nights, its price night by night, how it is
/// paid and the cancellation policy, then the reservation itself (the API's
/// `POST /stays/appointment`). A prepaid room goes on to the payment provider's checkout, which
/// sends the guest back to `/stays/paid`; one paid at the hotel to the reservation.
struct StaysReservePage {
    let web: WebFrontEnd
    let stays: StaysService
    let accounts: StaysAccountService

    static let signIn = "/stays/sign-in"

    /// What the reserve form carries: the search's choice, a purpose, and one idempotency key
    /// per form, so a second click answers the first reservation.
    struct Choice {
        var room: String
        var checkIn: String
        var checkOut: String
        var guests: String
        var purpose = ""
        var key: String

        /// The reserve page of this choice.
        var pagePath: String {
            let query = [("room", room), ("checkIn", checkIn), ("checkOut", checkOut), ("guests", guests)]
                .map { "\($0.0)=\(WebFrontEnd.queryEscaped($0.1))" }.joined(separator: "&")
            return "/stays/reserve?\(query)"
        }
    }

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("reserve", use: page)
        group.post("reserve", use: reserve)
    }

    @Sendable func page(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        _ = try web.requireSignIn(visit, signInPath: Self.signIn)
        let query = request.uri.queryParameters
        let choice = Choice(
            room: query.get("room") ?? "", checkIn: query.get("checkIn") ?? "", checkOut: query.get("checkOut") ?? "",
            guests: query.get("guests") ?? "", key: web.random.token(byteCount: 16))
        return try await render(choice, visit: visit)
    }

    @Sendable func reserve(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let form = try await web.form(request, context: context, visit: visit)
        let choice = Choice(
            room: form["room"] ?? "", checkIn: form["checkIn"] ?? "", checkOut: form["checkOut"] ?? "",
            guests: form["guests"] ?? "", purpose: form["purpose"] ?? "",
            key: String((form["key"] ?? "").prefix(100)))
        // Signed out meanwhile: sign in, then back to this room's page (the POST has no page).
        guard let accountID = visit.accountID else {
            throw WebRedirect(to: "\(Self.signIn)?next=\(WebFrontEnd.queryEscaped(choice.pagePath))")
        }
        let hotel = try await stays.hotel()
        let view = StaysWebView(web: web, hotel: hotel, language: visit.language)
        do {
            let guest = try await accounts.guest(accountID: accountID)
            let (range, people) = try parse(choice, hotel: hotel)
            let outcome = try await stays.reserve(
                guest: guest, roomTypeID: Int64(choice.room) ?? 0, range: range, people: people,
                purpose: choice.purpose, idempotencyKey: choice.key.isEmpty ? nil : "web-\(choice.key)",
                emailVerified: try await accounts.hasVerifiedEmail(accountID: accountID), clientIP: context.clientIP,
                hotel: hotel)
            let record: StaysReservationRecord
            switch outcome {
            case .created(let made, _), .replayed(let made): record = made
            }
            if record.status == .pendingPayment, let prepayment = record.prepayment {
                return web.redirect(
                    prepayment.checkoutURL, visit: visit,
                    cookies: StaysWebPaymentReturnMiddleware.cookies(for: prepayment.returnSecret, web: web))
            }
            return web.redirect("/stays/reservations/\(record.id)?made=1", visit: visit)
        } catch let error as StaysValidationError {
            let fields = StaysSearchPage.fieldErrors(error, view: view)
            return try await render(
                choice, visit: visit, purposeError: fields["purpose"],
                problems: fields.filter { $0.key != "purpose" }.map(\.value), status: .badRequest)
        } catch let error as ConciergeError where error.category == .conflict {
            return try await render(choice, visit: visit, problems: [view.message(error.message)], status: .conflict)
        } catch let error as ConciergeError {
            // A per-customer limit (docs/limits.md): its sentence says what to do.
            guard case .tooManyRequests = error.category else { throw error }
            return try await render(
                choice, visit: visit, problems: [view.message(error.message)], status: .tooManyRequests)
        }
    }

    private func parse(_ choice: Choice, hotel: HotelSettings) throws -> (StayRange, Int) {
        let range = try StaysQuery.range(
            choice.checkIn, choice.checkOut, stays: stays, hotel: hotel, fields: ("checkIn", "checkOut"))
        let people = try stays.people(
            guests: try StaysQuery.integer(choice.guests, field: "guests", required: true) ?? 1, children: nil,
            hotel: hotel)
        return (range, people)
    }

    /// The form with the room's price for the stay, or why it cannot be reserved.
    private func render(
        _ choice: Choice, visit: WebVisit, purposeError: String? = nil, problems: [String] = [],
        status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let hotel = try await stays.hotel()
        let view = StaysWebView(web: web, hotel: hotel, language: visit.language)
        var data: [String: Any] = [
            "room": choice.room, "checkIn": choice.checkIn, "checkOut": choice.checkOut, "guests": choice.guests,
            "purpose": choice.purpose, "key": choice.key,
            "back": "/stays/search?checkIn=\(choice.checkIn)&checkOut=\(choice.checkOut)&guests=\(choice.guests)",
        ]
        if let purposeError { data["purposeError"] = purposeError }
        var problems = problems
        var status = status
        do {
            let (range, people) = try parse(choice, hotel: hotel)
            let offers = try await stays.availableRooms(range: range, people: people, hotel: hotel)
            if let offer = offers.first(where: { String($0.roomType.id) == choice.room }) {
                data["offer"] = offerData(offer, range: range, people: people, view: view)
            } else if problems.isEmpty {
                problems.append(view.text("not_free"))
                status = .conflict
            }
        } catch let error as StaysValidationError {
            problems += StaysSearchPage.fieldErrors(error, view: view).values.sorted()
            status = .badRequest
        }
        if !problems.isEmpty {
            data["problems"] = problems
            data["hasProblems"] = true
        }
        return web.page(
            "stays/reserve", title: view.text("reserve_title"), data: data, visit: visit, status: status,
            styles: ["stays.css"])
    }

    private func offerData(_ offer: StaysService.RoomOffer, range: StayRange, people: Int, view: StaysWebView)
        -> [String: Any]
    {
        let hotel = view.hotel
        let quote = offer.quote
        var data = view.roomType(offer.roomType)
        data["checkInText"] = view.text(
            "check_in_at", ["date": view.night(range.checkIn), "time": view.hour(hotel.checkInHour)])
        data["checkOutText"] = view.text(
            "check_out_at", ["date": view.night(range.checkOut), "time": view.hour(hotel.checkOutHour)])
        data["people"] = view.people(people)
        data["nightsText"] = view.nights(quote.nights)
        data["breakdown"] = view.breakdown(
            nights: range.nights, nightlyCents: quote.nightlyCents, cityTaxCents: quote.cityTaxCents,
            vatCents: quote.vatIncludedCents, totalCents: quote.totalCents, currency: hotel.currency)
        data["cityTaxRule"] = view.text(
            "city_tax_rule", ["price": view.money(hotel.cityTaxCentsPerPersonNight)])
        data["policy"] = view.policy(
            checkIn: range.checkIn, freeHours: stays.cancellation.freeHours,
            firstNightCents: quote.nightlyCents.first ?? 0, currency: hotel.currency)
        data["paymentText"] =
            offer.roomType.paymentPolicy == .prepay
            ? view.text("prepay_text", ["total": view.money(quote.totalCents)])
            : view.text("pay_at_hotel_text", ["total": view.money(quote.totalCents)])
        data["button"] = view.text(offer.roomType.paymentPolicy == .prepay ? "reserve_and_pay" : "reserve_button")
        return data
    }
}
