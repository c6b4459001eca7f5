import ConciergeCore
import Foundation
import Hummingbird

/// `/rides/trips`: the customer's bookings, newest first; one booking (where the checkout comes
/// back to, which makes it the confirmation page); and cancelling under the API's own rule.
struct RidesTripPages: Sendable {
    let rides: RidesWebPages

    static let pageSize = 20

    private var web: WebFrontEnd { rides.web }

    @Sendable func list(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let customer = try await rides.requireCustomer(visit)
        let offset = min(max(Int(request.uri.queryParameters.get("offset") ?? "") ?? 0, 0), 1_000_000)
        let found = try await rides.bookings.bookings(
            customerID: customer.id, limit: Self.pageSize + 1, offset: offset)
        let view = RidesBookingView(rides: rides, visit: visit)
        var data: [String: Any] = [
            "trips": found.prefix(Self.pageSize).map(view.context),
            "hasTrips": !found.isEmpty,
        ]
        if found.count > Self.pageSize { data["olderHref"] = "/rides/trips?offset=\(offset + Self.pageSize)" }
        if offset > 0 { data["newerHref"] = "/rides/trips?offset=\(max(0, offset - Self.pageSize))" }
        return web.page(
            "rides/trips", title: rides.text("trips_title", visit), data: data, visit: visit, styles: ["rides.css"])
    }

    /// One booking: its owner's, or anyone's holding the secret link the checkout returns to. A
    /// booking still waiting for payment is checked with the provider first (as the API's
    /// return page does), so the page is right before the webhook arrives.
    @Sendable func trip(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let reference = try context.parameters.require("reference")
        let secret = request.uri.queryParameters.get("t").map { String($0) }
        var booking = try await find(reference, secret: secret, visit: visit)
        if booking.state == .awaitingPayment, let paymentID = booking.paymentID {
            do {
                let snapshot = try await rides.payments.fetchPayment(id: paymentID)
                if try await rides.dispatcher.dispatch(snapshot, provider: rides.payments.name) != nil {
                    booking = try await find(reference, secret: secret, visit: visit)
                }
            } catch {
                context.logger.warning("trip page: payment status unavailable: \(error)")
            }
        }
        var notice: String?
        if request.uri.queryParameters.get("cancelled") == "1" { notice = rides.text("cancelled_notice", visit) }
        return await tripPage(visit, booking: booking, notice: notice, errors: RidesPageErrors())
    }

    @Sendable func cancel(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let customer = try await rides.requireCustomer(visit, next: "/rides/trips")
        _ = try await web.form(request, context: context, visit: visit)
        let reference = try context.parameters.require("reference")
        do {
            let cancelled = try await rides.bookings.cancel(reference: reference, customer: customer)
            return web.redirect("/rides/trips/\(cancelled.reference)?cancelled=1", visit: visit)
        } catch let refusal as ConciergeError where refusal.category != .notFound {
            let booking = try await rides.bookings.booking(reference: reference, customerID: customer.id)
            var errors = RidesPageErrors()
            errors.add(rides.sentence(refusal, visit), field: "cancel")
            return await tripPage(
                visit, booking: booking, notice: nil, errors: errors, status: RidesWebPages.status(of: refusal))
        }
    }

    // MARK: Helpers

    private func find(_ reference: String, secret: String?, visit: WebVisit) async throws -> Booking {
        if let customer = await rides.customer(visit) {
            do {
                return try await rides.bookings.booking(reference: reference, customerID: customer.id)
            } catch let error as ConciergeError where error.category == .notFound {
                // Not theirs: only the secret link may still open it.
            }
        }
        if let secret, reference.count <= 24, secret.count <= 100,
            let booking = try await rides.bookings.publicBooking(reference: reference, secret: secret)
        {
            return booking
        }
        if !visit.isSignedIn { throw WebRedirect(to: "/rides?next=\(WebFrontEnd.queryEscaped(visit.path))") }
        throw ConciergeError(
            .notFound, code: "booking_not_found",
            message: rides.text("trip_not_found", visit, ["reference": reference]))
    }

    private func tripPage(
        _ visit: WebVisit, booking: Booking, notice: String?, errors: RidesPageErrors,
        status: HTTPResponse.Status = .ok
    ) async -> Response {
        let view = RidesBookingView(rides: rides, visit: visit)
        let owner = await rides.customer(visit)?.id == booking.customerID
        var data = errors.context
        var trip = view.context(booking)
        // The secret link shows the ride, not the driver's phone: that is for the customer.
        if !owner { trip["driver"] = nil }
        data["trip"] = trip
        let (title, message) = view.headline(booking)
        data["headline"] = title
        data["message"] = message
        data["isOwner"] = owner
        if let notice { data["notice"] = notice }
        return web.page("rides/trip", title: title, data: data, visit: visit, status: status, styles: ["rides.css"])
    }
}
