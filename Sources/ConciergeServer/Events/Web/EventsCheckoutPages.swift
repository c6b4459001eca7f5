import ConciergeCore
import ConciergeStore
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Buying on the web: `POST /events/shows/{id}/hold` holds named seats or the best available
/// through `EventsService.checkout` (the rules of `POST /events/api/seat-checkout`: a verified
/// email, all or nothing), then `GET /events/orders/{id}` shows the hold's countdown and the Pay
/// button (the payment's checkout), and after paying the tickets. `POST …/cancel` cancels under
/// the API's refund rule.
struct EventsCheckoutPages {
    let web: WebFrontEnd
    let events: EventsService
    let accounts: EventsAccounts
    let ledger: SQLPaymentLedger
    let showPage: EventsShowPage

    @Sendable func hold(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let form = try await web.form(request, context: context, visit: visit)
        let showID = try EventsShowsController.showID(context)
        guard let accountID = visit.accountID else {
            throw WebRedirect(to: "/account/sign-in?next=" + WebFrontEnd.queryEscaped("/events/shows/\(showID)"))
        }
        let words = EventsPageWords(web, visit)
        let best = form["mode"] == "best"
        var problem = EventsShowPage.Problem()
        let selection: SeatSelection
        if best {
            let section = form["section"].flatMap { $0.isEmpty ? nil : $0 }
            problem.quantity = Int(form["quantity"] ?? "") ?? 0
            problem.section = section
            selection = SeatSelection(showID: showID, kind: .best(quantity: problem.quantity ?? 0, section: section))
        } else {
            let seats = form.all("seat").filter { !$0.isEmpty && $0.count <= 100 }
            problem.chosen = Set(seats)
            guard !seats.isEmpty else {
                problem.seatsError = words.text("error_no_seats")
                problem.status = .badRequest
                return try await showPage.page(showID: showID, visit: visit, problem: problem)
            }
            selection = SeatSelection(showID: showID, kind: .seats(seats))
        }
        let account = try await accounts.accounts.account(id: accountID)
        guard let email = account.verifiedEmails.first else {
            problem.pageError = words.text("error_email_not_verified")
            problem.needsVerification = true
            problem.status = .forbidden
            return try await showPage.page(showID: showID, visit: visit, problem: problem)
        }
        do {
            let opened = try await events.checkout(
                selection, accountID: accountID, email: email, clientIP: context.clientIP)
            return web.redirect(
                "/events/orders/\(opened.booking.orderID)", visit: visit,
                cookies: [EventsCheckoutReturn.cookie(adding: opened.booking.sessionID, to: request, web: web)])
        } catch let error as SeatsUnavailableError {
            problem.status = .conflict
            if error.seatIDs.isEmpty {
                let message = words.text("error_not_enough_seats")
                if best { problem.bestError = message } else { problem.seatsError = message }
            } else {
                let venue = try await events.show(id: showID).venue
                problem.seatsError = words.text(
                    "error_seats_taken", ["seats": words.seatNames(error.seatIDs, venue: venue)])
                problem.chosen.subtract(error.seatIDs)
            }
        } catch let error as ConciergeError where error.code == "invalid_seats" {
            problem.status = .badRequest
            if best { problem.bestError = words.error(error) } else { problem.seatsError = words.error(error) }
        } catch let error as ConciergeError where error.code == "show_not_on_sale" {
            problem.status = .conflict
            problem.pageError = words.error(error)
        } catch let error as ConciergeError {
            // A per-customer limit (docs/limits.md): its sentence says what to do.
            guard case .tooManyRequests = error.category else { throw error }
            problem.status = .tooManyRequests
            problem.pageError = words.error(error)
        }
        return try await showPage.page(showID: showID, visit: visit, problem: problem)
    }

    @Sendable func order(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        return try await orderPage(orderID: try context.parameters.require("id"), visit: visit, error: nil)
    }

    func orderPage(orderID: String, visit: WebVisit, error: String?, status: HTTPResponse.Status = .ok)
        async throws -> Response
    {
        let accountID = try web.requireSignIn(visit)
        let words = EventsPageWords(web, visit)
        guard orderID.count <= 100 else { throw ConciergeError.eventsBookingNotFoundPage }
        let view = try await events.view(try await events.booking(orderID: orderID, accountID: accountID))
        var data = EventsBookingCard.data(view, words: words, now: web.clock.now)
        if view.booking.state == .pending {
            data["payHref"] = try await ledger.payments(orderID: orderID).last?.checkoutURL
        }
        data["pageError"] = error
        data["cancelledNotice"] = visit.path.contains("notice=cancelled")
        let title = words.text(view.booking.state == .confirmed ? "order_title_confirmed" : "order_title")
        return web.page("events/order", title: title, data: data, visit: visit, status: status, styles: ["events.css"])
    }

    @Sendable func cancel(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let form = try await web.form(request, context: context, visit: visit)
        let orderID = try context.parameters.require("id")
        let accountID = try web.requireSignIn(visit)
        do {
            _ = try await events.cancel(orderID: String(orderID.prefix(100)), accountID: accountID)
        } catch let error as ConciergeError where error.category == .conflict {
            return try await orderPage(
                orderID: orderID, visit: visit, error: EventsPageWords(web, visit).error(error), status: .conflict)
        }
        let back = WebFrontEnd.localPath(form["next"]) ?? "/events/orders/\(orderID)"
        return web.redirect(back + (back.contains("?") ? "&" : "?") + "notice=cancelled", visit: visit)
    }

    /// `GET /events/checkout-return?session_id=`: where a web order comes back from paying
    /// (`EventsCheckoutReturn`); asks the provider like the API's return, then shows the order.
    @Sendable func checkoutReturn(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let sessionID = try request.requiredQuery("session_id", maxLength: 100)
        let booking = try await events.checkoutResult(sessionID: sessionID)
        return web.redirect("/events/orders/\(booking.orderID)", visit: visit)
    }

    /// `GET /events/tickets/{order}/{seat}.svg`: a seat's ticket QR for the signed-in owner (the
    /// API's image route wants a bearer token; pages have the cookie session).
    @Sendable func ticketImage(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let accountID = try web.requireSignIn(visit)
        let orderID = try context.parameters.require("id")
        let seatID = try context.parameters.require("seatId")
        guard orderID.count <= 100, seatID.count <= 100 else { throw ConciergeError.eventsBookingNotFoundPage }
        let ticket = try await events.seatTicket(orderID: orderID, seatID: seatID, accountID: accountID)
        return Response(
            status: .ok,
            headers: [.contentType: "image/svg+xml; charset=utf-8", .cacheControl: "private, no-store"],
            body: .init(byteBuffer: ByteBuffer(string: try ticket.svg())))
    }
}

extension ConciergeError {
    static let eventsBookingNotFoundPage = ConciergeError(
        .notFound, code: "booking_not_found", message: "There is no such booking in your account.")
}
