import ConciergeCore
import ConciergeModels
import Foundation
import Hummingbird

/// `/rides`: the booking form, its pricing step (`/rides/quote`, a GET: pricing changes
/// nothing) and the booking itself (`POST /rides/book`), which sends the person to the checkout.
struct RidesBookingPages: Sendable {
    let rides: RidesWebPages

    private var web: WebFrontEnd { rides.web }

    /// Signed out: sign in by SMS code. Signed in: an empty booking form.
    @Sendable func start(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        guard await rides.customer(visit) != nil else {
            let next = WebFrontEnd.localPath(request.uri.queryParameters.get("next")) ?? "/rides"
            return RidesSignInPages(rides: rides).phonePage(visit, next: next)
        }
        var form = RideRequestForm()
        let now = rides.clock.now
        form.date = RideRequestForm.zurichDay(
            now.addingTimeInterval(Double(rides.rules.minimumAdvanceHours + 24) * 3600))
        form.time = "09:00"
        let data = formContext(form, visit: visit, places: [:], errors: RidesPageErrors())
        return page(visit, data: data)
    }

    /// The pricing step: finds the places typed (or offers the matches to pick from), checks the
    /// date and the booking rules, and prices the three classes.
    @Sendable func quote(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        _ = try await rides.requireCustomer(visit)
        // Read as a form: browsers send a GET form's spaces as `+`.
        let query = WebForm(queryOf: request)
        let form = RideRequestForm { query[$0] }
        return await bookingPage(visit, form: form, refusal: nil)
    }

    /// Books the priced ride and sends the person to pay; a refusal shows the form again with the
    /// service's sentence next to the field it concerns.
    @Sendable func book(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let customer = try await rides.requireCustomer(visit, next: "/rides")
        let posted = try await web.form(request, context: context, visit: visit)
        let form = RideRequestForm { posted[$0] }
        guard let pickupAt = form.pickupAt else {
            return await bookingPage(visit, form: form, refusal: nil)
        }
        let input = BookingRequestInput(
            pickupPlaceId: form.pickupId, pickupDescription: form.pickup, destinationPlaceId: form.destinationId,
            destinationDescription: form.destination, dateTime: WireDate.string(from: pickupAt),
            passengers: form.passengerCount ?? 0, vehicleClass: form.vehicleClass,
            flightNumber: form.flight.isEmpty ? nil : form.flight)
        // One key per priced form and class: pressing Book twice books once, and going back to
        // pick another class is a new booking.
        let key = form.key.isEmpty ? nil : "web-\(form.key)-\(form.vehicleClass.prefix(20))"
        do {
            let answer: String
            switch try await rides.webBookings.prepare(
                input, customer: customer, idempotencyKey: key, clientIP: context.clientIP)
            {
            case .replay(let first):
                answer = first
            case .draft(let draft):
                answer = try await rides.webBookings.commit(draft) { booking in
                    String(decoding: try Wire.encoder.encode(BookingResponse(booking)), as: UTF8.self)
                }
            }
            let booked = try JSONDecoder().decode(BookingResponse.self, from: Data(answer.utf8))
            guard let checkout = booked.checkoutUrl else {
                throw ConciergeError(
                    .unavailable(retryAfterSeconds: 1), code: "booking_unavailable", message: "Please try again.")
            }
            return web.redirect(checkout, visit: visit)
        } catch let refusal as ConciergeError {
            return await bookingPage(visit, form: form, refusal: refusal)
        }
    }

    // MARK: The page

    /// The form as typed, with what to fix next to each field, and the three classes with their
    /// prices once both places, the date and the rules are right.
    func bookingPage(_ visit: WebVisit, form typed: RideRequestForm, refusal: ConciergeError?) async -> Response {
        var form = typed
        var errors = RidesPageErrors()
        var status: HTTPResponse.Status = .ok
        if let refusal {
            rides.record(refusal, in: &errors, visit)
            status = RidesWebPages.status(of: refusal)
        }
        var choices: [RidePlaceSide: [PlaceSuggestion]] = [:]
        for side in RidePlaceSide.allCases {
            do {
                if let found = try await findPlace(side, form: &form, visit: visit, errors: &errors) {
                    choices[side] = found
                }
            } catch let failure as ConciergeError {
                rides.record(failure, in: &errors, visit)
            } catch {
                errors.add(rides.text("error_places_unavailable", visit), field: side.rawValue)
            }
        }
        let pickupAt = checkTimeAndDetails(form, visit: visit, errors: &errors)
        var quote: [String: Any]?
        let blocking = ["pickup", "destination", "date", "time", "flight"]
        if choices.isEmpty, let pickupAt, !form.pickupId.isEmpty, !form.destinationId.isEmpty,
            blocking.allSatisfy({ errors.byField[$0] == nil })
        {
            do {
                let ride = try await rides.pricing.price(
                    originPlaceId: form.pickupId, destinationPlaceId: form.destinationId, pickup: pickupAt)
                if form.key.isEmpty { form.key = rides.random.token(byteCount: 16) }
                quote = RidesQuoteView(rides: rides, visit: visit).context(ride, form: form)
            } catch let failure as ConciergeError {
                rides.record(failure, in: &errors, visit)
            } catch {
                errors.add(rides.text("error_places_unavailable", visit), field: nil)
            }
        }
        var data = formContext(form, visit: visit, places: choices, errors: errors)
        if let quote { data["quote"] = quote }
        if status == .ok, !errors.isEmpty { status = .badRequest }
        return page(visit, data: data, status: status)
    }

    /// A side's place: the one picked for the text in its field (checked with the provider), or
    /// the matches of a search to pick from. Nil when the place is settled or missing.
    private func findPlace(
        _ side: RidePlaceSide, form: inout RideRequestForm, visit: WebVisit, errors: inout RidesPageErrors
    ) async throws -> [PlaceSuggestion]? {
        if let id = form.pickedPlace(side) {
            guard let place = try await rides.places.details(placeId: id, sessionToken: nil) else {
                errors.add(rides.text("error_place_unknown", visit), field: side.rawValue)
                return nil
            }
            // A match picked by radio button is named by its address; one picked in the listbox
            // keeps the suggestion's text the person saw.
            let byRadio = !(side == .pickup ? form.pickupPick : form.destinationPick).isEmpty
            let typed = form.text(side)
            form.choose(side, id: place.placeId, description: byRadio || typed.isEmpty ? place.formattedAddress : typed)
            return nil
        }
        let text = form.text(side)
        guard !text.isEmpty else {
            errors.add(rides.text("error_\(side.rawValue)_missing", visit), field: side.rawValue)
            return nil
        }
        let matches = try await rides.places.autocomplete(input: text, near: nil, sessionToken: nil)
        guard !matches.isEmpty else {
            errors.add(
                rides.text("error_place_no_match", visit, ["text": text]),
                field: side.rawValue)
            return nil
        }
        return Array(matches.prefix(6))
    }

    /// The date, time, passengers and flight number, by the booking rules; the pickup moment
    /// when the date and time make one.
    private func checkTimeAndDetails(_ form: RideRequestForm, visit: WebVisit, errors: inout RidesPageErrors)
        -> Date?
    {
        if form.passengerCount == nil { errors.add(rides.text("error_passengers", visit), field: "passengers") }
        do {
            _ = try BookingRules.normalizedFlightNumber(form.flight.isEmpty ? nil : form.flight)
        } catch {
            rides.record(error, in: &errors, visit)
        }
        guard !form.date.isEmpty else {
            errors.add(rides.text("error_date_missing", visit), field: "date")
            return nil
        }
        guard !form.time.isEmpty else {
            errors.add(rides.text("error_time_missing", visit), field: "time")
            return nil
        }
        guard let pickupAt = form.pickupAt else {
            errors.add(rides.text("error_date_invalid", visit), field: "date")
            return nil
        }
        do {
            try rides.rules.checkPickupTime(pickupAt, now: rides.clock.now)
        } catch {
            rides.record(error, in: &errors, visit)
            return nil
        }
        return pickupAt
    }

    /// Everything the form shows: the fields as typed, the places' matches, the messages.
    private func formContext(
        _ form: RideRequestForm, visit: WebVisit, places choices: [RidePlaceSide: [PlaceSuggestion]],
        errors: RidesPageErrors
    ) -> [String: Any] {
        let earliest = rides.clock.now.addingTimeInterval(Double(rides.rules.minimumAdvanceHours) * 3600)
        var data = errors.context
        data["places"] = RidePlaceSide.allCases.map { side -> [String: Any] in
            let matches = choices[side] ?? []
            let (id, chosen) =
                side == .pickup ? (form.pickupId, form.pickupChosen) : (form.destinationId, form.destinationChosen)
            var field: [String: Any] = [
                "name": side.rawValue, "label": rides.text("\(side.rawValue)_label", visit),
                "hint": rides.text("place_hint", visit), "text": form.text(side),
                "placeId": matches.isEmpty ? id : "", "chosen": matches.isEmpty ? chosen : "",
                "choices": matches.enumerated().map { index, match in
                    [
                        "id": "\(side.rawValue)-pick-\(index)", "placeId": match.placeId,
                        "description": match.description, "checked": index == 0,
                    ] as [String: Any]
                },
                "hasChoices": !matches.isEmpty,
                "chooseLegend": rides.text("choose_\(side.rawValue)", visit),
            ]
            if let message = errors.byField[side.rawValue] { field["error"] = message }
            return field
        }
        data["date"] = form.date
        data["time"] = form.time
        data["dateMin"] = RideRequestForm.zurichDay(earliest)
        data["flight"] = form.flight
        data["passengerOptions"] = (1...7).map { count in
            ["value": count, "selected": String(count) == form.passengers] as [String: Any]
        }
        data["lead"] = rides.text("book_lead", visit).replacingOccurrences(
            of: "{hours}", with: String(rides.rules.minimumAdvanceHours))
        data["payNote"] = rides.text("pay_note", visit).replacingOccurrences(
            of: "{cancelHours}", with: String(rides.rules.freeCancellationHours))
        data["whenHint"] = rides.text("when_hint", visit).replacingOccurrences(
            of: "{earliest}", with: WebFormat.dateTime(earliest, visit.language))
        return data
    }

    private func page(_ visit: WebVisit, data: [String: Any], status: HTTPResponse.Status = .ok) -> Response {
        web.page(
            "rides/book", title: rides.text("book_title", visit), data: data, visit: visit, status: status,
            scripts: ["rides-places.js"], styles: ["rides.css"], address: "/rides")
    }
}
