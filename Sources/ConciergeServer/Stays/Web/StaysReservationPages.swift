import ConciergeCore
import Foundation
import HTTPTypes
import Hummingbird

/// `/stays/reservations` (upcoming and past), one reservation, and its cancellation under the
/// hotel's policy — the API's `GET /stays/appointment/{guestId}` and `DELETE
/// /stays/appointment/{id}`. The cancel page says what the policy gives back before the guest
/// confirms.
struct StaysReservationPages {
    let web: WebFrontEnd
    let stays: StaysService
    let accounts: StaysAccountService

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("reservations", use: list)
        group.get("reservations/:id", use: detail)
        group.get("reservations/:id/cancel", use: cancelPage)
        group.post("reservations/:id/cancel", use: cancel)
    }

    @Sendable func list(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let accountID = try web.requireSignIn(visit, signInPath: StaysReservePage.signIn)
        let guest = try await accounts.guest(accountID: accountID)
        let hotel = try await stays.hotel()
        let view = StaysWebView(web: web, hotel: hotel, language: visit.language)
        let upcoming = try await stays.reservations(guest: guest, when: .upcoming, hotel: hotel)
        let past = try await stays.reservations(guest: guest, when: .past, hotel: hotel)
        let describer = StaysReservationView(view: view, policy: stays.cancellation, now: web.clock.now)
        return web.page(
            "stays/reservations", title: view.text("reservations_title"),
            data: [
                "upcoming": upcoming.map(describer.summary), "past": past.map(describer.summary),
                "hasUpcoming": !upcoming.isEmpty, "hasPast": !past.isEmpty,
            ], visit: visit, styles: ["stays.css"])
    }

    @Sendable func detail(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let (record, view) = try await own(request, context: context, visit: visit)
        let describer = StaysReservationView(view: view, policy: stays.cancellation, now: web.clock.now)
        var data = describer.detail(record)
        let query = request.uri.queryParameters
        if query.get("made") != nil {
            data["notice"] = view.text("made_notice", ["code": record.confirmationCode])
        } else if query.get("paid") != nil {
            data["notice"] = Self.paymentNotice(record, view: view)
        } else if query.get("cancelled") != nil, record.status == .cancelled {
            data["notice"] = describer.cancelledText(record)
        }
        return web.page(
            "stays/reservation", title: view.text("reservation_title"), data: data, visit: visit, scripts: [],
            styles: ["stays.css"])
    }

    @Sendable func cancelPage(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let (record, view) = try await own(request, context: context, visit: visit)
        return render(record, view: view, visit: visit)
    }

    @Sendable func cancel(request: Request, context: AppRequestContext) async throws -> Response {
        let visit = await web.visit(request)
        let (record, view) = try await own(request, context: context, visit: visit)
        _ = try await web.form(request, context: context, visit: visit)
        do {
            let guest = try await accounts.guest(accountID: record.accountID)
            let cancelled = try await stays.cancel(id: record.id, guest: guest)
            return web.redirect("/stays/reservations/\(cancelled.id)?cancelled=1", visit: visit)
        } catch let error as ConciergeError where error.category == .conflict {
            return render(record, view: view, visit: visit, problem: view.message(error.message), status: .conflict)
        }
    }

    private func render(
        _ record: StaysReservationRecord, view: StaysWebView, visit: WebVisit, problem: String? = nil,
        status: HTTPResponse.Status = .ok
    ) -> Response {
        let describer = StaysReservationView(view: view, policy: stays.cancellation, now: web.clock.now)
        var data = describer.detail(record)
        data["preview"] = describer.cancellationPreview(record)
        if let problem { data["problem"] = problem }
        return web.page(
            "stays/cancel", title: view.text("cancel_title"), data: data, visit: visit, status: status,
            styles: ["stays.css"])
    }

    /// The signed-in guest's reservation the path names; anyone else's is not there (404).
    private func own(_ request: Request, context: AppRequestContext, visit: WebVisit) async throws
        -> (StaysReservationRecord, StaysWebView)
    {
        let accountID = try web.requireSignIn(visit, signInPath: StaysReservePage.signIn)
        let text = context.parameters.get("id") ?? ""
        guard text.count <= 15, let id = Int(text), id > 0 else { throw ConciergeError.staysReservationNotFound }
        let guest = try await accounts.guest(accountID: accountID)
        let record = try await stays.reservation(id: id, guest: guest)
        let view = StaysWebView(web: web, hotel: try await stays.hotel(), language: visit.language)
        return (record, view)
    }

    /// Where a payment stands, after the checkout.
    static func paymentNotice(_ record: StaysReservationRecord, view: StaysWebView) -> String {
        switch record.status {
        case .confirmed: view.text("paid_confirmed", ["code": record.confirmationCode])
        case .pendingPayment: view.text("paid_pending")
        case .expired: view.text("paid_expired")
        case .refunded: view.text("paid_refunded")
        case .cancelled: view.text("paid_failed")
        }
    }
}
